"""The nki-samples softmax tutorial kernel (src/nki_samples/tutorials/softmax/
softmax_nki_kernels.py), re-expressed in NKI 0.6: the same 128-row tiles and
nki.language calls (load, max, subtract, exp, sum, divide, store); NKI 0.6 has
no masks, so the last tile is a shorter slice instead of a masked one."""
import math

import nki
import nki.language as nl


@nki.jit
def nki_softmax_kernel(a_tensor):
  # softmax(x) = exp(x - max(x)) / sum(exp(x - max(x)))
  out_tensor = nl.ndarray(a_tensor.shape, dtype=a_tensor.dtype, buffer=nl.shared_hbm)
  num_rows = a_tensor.shape[0]

  for i in nl.affine_range(math.ceil(a_tensor.shape[0] / 128)):
    rows = min(128, num_rows - i * 128)
    a_tile = nl.load(a_tensor[i * 128:i * 128 + rows, :])

    max_vals = nl.max(a_tile, axis=[1], keepdims=True)
    shifted = nl.subtract(a_tile, max_vals)
    numerator = nl.exp(shifted)
    denominator = nl.sum(numerator, axis=[1])
    sm = numerator / denominator

    nl.store(out_tensor[i * 128:i * 128 + rows, :], value=sm)

  return out_tensor
