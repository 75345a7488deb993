"""NKI's average_pool2d tutorial kernel (aws-neuron-sdk
nki/examples/average_pool2d/average_pool2d_nki_kernels.py, NKI 0.6 form):
one dma_copy of the [C, H, W] input, a 5-D access-pattern view that groups
each pool window into the last two axes, nl.sum over them, a tensor_scalar
multiply by 1/pool_size^2."""
import nki
import nki.isa as nisa
import nki.language as nl
from nki.typing import tensor  # noqa: F401 (the tutorial imports it)


@nki.jit
def tensor_avgpool_kernel(in_tensor, pool_size):
  sz_cin, sz_hin, sz_win = in_tensor.shape
  sz_hout = sz_hin // pool_size
  sz_wout = sz_win // pool_size
  out_tensor = nl.ndarray((sz_cin, sz_hout, sz_wout), dtype=in_tensor.dtype, buffer=nl.shared_hbm)

  sz_p = sz_cin
  sz_pool = pool_size

  in_tile = nl.ndarray(in_tensor.shape, dtype=in_tensor.dtype, buffer=nl.sbuf)
  nisa.dma_copy(dst=in_tile, src=in_tensor)

  # [sz_p, sz_hout, sz_wout, sz_pool, sz_pool]: pool windows in the last two axes
  pool_view = in_tile.ap([
    [sz_hin * sz_win, sz_p],
    [sz_pool * sz_win, sz_hin // sz_pool],
    [sz_pool, sz_win // sz_pool],
    [sz_win, sz_pool],
    [1, sz_pool],
  ])
  sum_tile = nl.sum(pool_view, axis=[3, 4])
  out_tile = nl.ndarray(sum_tile.shape, dtype=sum_tile.dtype, buffer=nl.sbuf)
  nisa.tensor_scalar(dst=out_tile, data=sum_tile, op0=nl.multiply, operand0=1.0 / (pool_size * pool_size))

  nisa.dma_copy(dst=out_tensor, src=out_tile)
  return out_tensor
