"""The nki-samples RMSNorm tutorial kernel (src/nki_samples/tutorials/rmsnorm/
rmsnorm_nki_kernels.py), re-expressed in NKI 0.6: out = a / RMS(a) * g per
128-row tile, with the weight loaded once onto every partition (a broadcast
HBM view) and the last tile a shorter slice instead of a mask."""
import math

import nki
import nki.language as nl


@nki.jit
def nki_rmsnorm_kernel(a_tensor, g_tensor):
  # out = a_tensor / RMS(a_tensor) * g_tensor, RMS(a) = sqrt(mean(a * a)) along the rows
  out_tensor = nl.ndarray(a_tensor.shape, dtype=a_tensor.dtype, buffer=nl.shared_hbm)
  assert a_tensor.shape[1] == g_tensor.shape[0]
  num_rows = a_tensor.shape[0]

  # the RMSNorm weight, once, on all 128 partitions
  g_tile = nl.load(g_tensor.reshape((1, g_tensor.shape[0])).broadcast(0, 128))

  for i in nl.affine_range(math.ceil(a_tensor.shape[0] / 128)):
    rows = min(128, num_rows - i * 128)
    a_tile = nl.load(a_tensor[i * 128:i * 128 + rows, :])

    in_square = nl.square(a_tile)
    square_sum = nl.sum(in_square, axis=[1])
    mean = square_sum / a_tensor.shape[1]
    rms_reciprocal = nl.rsqrt(mean)
    out_tile = nl.multiply(a_tile, rms_reciprocal)

    out_tile[...] = nl.multiply(out_tile, g_tile[0:rows, :])

    nl.store(out_tensor[i * 128:i * 128 + rows, :], value=out_tile)

  return out_tensor
