"""The nki-samples LayerNorm tutorial kernel, version 1 (nki.language calls
only; src/nki_samples/tutorials/layernorm/layernorm_nki_kernel.py),
re-expressed in NKI 0.6: gamma and beta are loaded once onto every partition
(a broadcast HBM view), then each 128-row tile is normalised with mean,
mean of squares, rsqrt, and scaled. Version 2 uses nisa.bn_stats/bn_aggr,
which nisa does not model yet."""
import math

import nki
import nki.language as nl


@nki.jit
def nki_layernorm_kernel_v1(input_tensor, epsilon, gamma_vector, beta_vector):
  output_tensor = nl.ndarray(input_tensor.shape, dtype=input_tensor.dtype, buffer=nl.shared_hbm)
  assert input_tensor.shape[1] == gamma_vector.shape[0] == beta_vector.shape[0]
  num_rows, num_cols = input_tensor.shape
  pmax = nl.tile_size.pmax

  # gamma and beta on every partition, reused by every tile
  gamma_sb = nl.load(gamma_vector.reshape((1, num_cols)).broadcast(0, pmax))
  beta_sb = nl.load(beta_vector.reshape((1, num_cols)).broadcast(0, pmax))

  for i in nl.affine_range(math.ceil(num_rows / pmax)):
    rows = min(pmax, num_rows - i * pmax)
    input_sb = nl.load(input_tensor[i * pmax:i * pmax + rows, :])

    # mean and variance: var = mean(x^2) - mean(x)^2
    mean = nl.mean(input_sb, axis=1)
    var = nl.mean(nl.square(input_sb), axis=1) - mean * mean

    # shift by the mean, scale by rsqrt(var + epsilon)
    shift_scale_tensor = (input_sb - mean) * nl.rsqrt(var + epsilon)

    output_sb = shift_scale_tensor * gamma_sb[0:rows, :] + beta_sb[0:rows, :]

    nl.store(output_tensor[i * pmax:i * pmax + rows, :], value=output_sb)

  return output_tensor
