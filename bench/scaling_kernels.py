"""The three kernels of bench/kernel_scaling.py, in the NKI 0.6 style of
tests/python/kernels/ (tensor_add.py, softmax.py, matmul.py), recording the
same instructions per tile, but able to reach 100,000 instructions:

- the tiles are allocated once, before the loops, and reused by every
  iteration. The tests' kernels allocate new tiles in every iteration, and
  every allocation is a declared tensor: they stop at the 1,024 tensors a
  program may declare (LANGUAGE.md 2.6), ~1,100 instructions for softmax
  (7 tiles per 128 rows) and ~1,360 for tensor_add (3 per tile);
- the tile sizes are parameters: the tests' [128, 512] tiles would need
  6.5 GB per input for 100k instructions of tensor_add (the model allows
  1 GiB per HBM tensor), and the matmul tutorial's [128, 128] x [128, 512]
  tiles 560 GFLOP;
- softmax is written with nki.isa calls into those tiles (nl.load, nl.max,
  ... allocate a new tile per call); it records the same eight instructions
  per 128 rows as tests/python/kernels/softmax.py: dma_copy, tensor_reduce
  max, tensor_scalar subtract, activation exp, tensor_reduce add, activation
  reciprocal, tensor_scalar multiply, dma_copy;
- matmul gives `accumulate` explicitly (the first k of each output tile
  overwrites the reused PSUM tile), where the tutorial's fresh PSUM tile per
  output tile relies on NKI's default.

Call nisa.nki.install() before importing this module.
"""
import nki
import nki.isa as nisa
import nki.language as nl


@nki.jit
def tensor_add(a_input, b_input, tile_n):
  """c = a + b over [128, tile_n] tiles: dma_copy, dma_copy, tensor_tensor, dma_copy per tile."""
  c_output = nl.ndarray(a_input.shape, dtype=a_input.dtype, buffer=nl.shared_hbm)
  M, N = a_input.shape
  TILE_M = 128
  assert M % TILE_M == 0 and N % tile_n == 0
  a_tile = nl.ndarray((TILE_M, tile_n), dtype=a_input.dtype, buffer=nl.sbuf)
  b_tile = nl.ndarray((TILE_M, tile_n), dtype=b_input.dtype, buffer=nl.sbuf)
  c_tile = nl.ndarray((TILE_M, tile_n), dtype=a_input.dtype, buffer=nl.sbuf)
  for m in nl.affine_range(M // TILE_M):
    for n in nl.affine_range(N // tile_n):
      rows, cols = slice(m * TILE_M, (m + 1) * TILE_M), slice(n * tile_n, (n + 1) * tile_n)
      nisa.dma_copy(dst=a_tile, src=a_input[rows, cols])
      nisa.dma_copy(dst=b_tile, src=b_input[rows, cols])
      nisa.tensor_tensor(dst=c_tile, data1=a_tile, data2=b_tile, op=nl.add)
      nisa.dma_copy(dst=c_output[rows, cols], src=c_tile)
  return c_output


@nki.jit
def softmax(a_tensor):
  """Row softmax over 128-row tiles (the rows must be a multiple of 128)."""
  out_tensor = nl.ndarray(a_tensor.shape, dtype=a_tensor.dtype, buffer=nl.shared_hbm)
  R, C = a_tensor.shape
  assert R % 128 == 0
  a_tile = nl.ndarray((128, C), dtype=nl.float32, buffer=nl.sbuf)
  max_vals = nl.ndarray((128, 1), dtype=nl.float32, buffer=nl.sbuf)
  shifted = nl.ndarray((128, C), dtype=nl.float32, buffer=nl.sbuf)
  numerator = nl.ndarray((128, C), dtype=nl.float32, buffer=nl.sbuf)
  denominator = nl.ndarray((128, 1), dtype=nl.float32, buffer=nl.sbuf)
  inverse = nl.ndarray((128, 1), dtype=nl.float32, buffer=nl.sbuf)
  sm = nl.ndarray((128, C), dtype=nl.float32, buffer=nl.sbuf)
  for i in nl.affine_range(R // 128):
    nisa.dma_copy(dst=a_tile, src=a_tensor[i * 128:(i + 1) * 128, :])
    nisa.tensor_reduce(dst=max_vals, op=nl.max, data=a_tile, axis=[1], keepdims=True)
    nisa.tensor_scalar(dst=shifted, data=a_tile, op0=nl.subtract, operand0=max_vals)
    nisa.activation(dst=numerator, op=nl.exp, data=shifted)
    nisa.tensor_reduce(dst=denominator, op=nl.add, data=numerator, axis=[1], keepdims=True)
    nisa.activation(dst=inverse, op=nl.reciprocal, data=denominator)
    nisa.tensor_scalar(dst=sm, data=numerator, op0=nl.multiply, operand0=inverse)
    nisa.dma_copy(dst=out_tensor[i * 128:(i + 1) * 128, :], src=sm)
  return out_tensor


@nki.jit
def matmul_tiled(lhsT, rhs, tile_m, tile_n):
  """result = lhsT.T @ rhs: per [tile_m, tile_n] result tile, K // 128 x (dma_copy,
  dma_copy, nc_matmul accumulating in PSUM), then tensor_copy and dma_copy."""
  K, M = lhsT.shape
  K_, N = rhs.shape
  assert K == K_
  TILE_K = nl.tile_size.pmax  # 128
  assert M % tile_m == 0 and N % tile_n == 0 and K % TILE_K == 0
  result = nl.ndarray((M, N), dtype=lhsT.dtype, buffer=nl.shared_hbm)
  lhsT_tile = nl.ndarray((TILE_K, tile_m), dtype=lhsT.dtype, buffer=nl.sbuf)
  rhs_tile = nl.ndarray((TILE_K, tile_n), dtype=rhs.dtype, buffer=nl.sbuf)
  res_psum = nl.ndarray((tile_m, tile_n), nl.float32, buffer=nl.psum)
  res_sb = nl.ndarray((tile_m, tile_n), dtype=result.dtype, buffer=nl.sbuf)
  for m in nl.affine_range(M // tile_m):
    for n in nl.affine_range(N // tile_n):
      for k in nl.affine_range(K // TILE_K):
        nisa.dma_copy(dst=lhsT_tile, src=lhsT[k * TILE_K:(k + 1) * TILE_K, m * tile_m:(m + 1) * tile_m])
        nisa.dma_copy(dst=rhs_tile, src=rhs[k * TILE_K:(k + 1) * TILE_K, n * tile_n:(n + 1) * tile_n])
        nisa.nc_matmul(dst=res_psum, stationary=lhsT_tile, moving=rhs_tile, accumulate=k > 0)
      nisa.tensor_copy(dst=res_sb, src=res_psum)
      nisa.dma_copy(dst=result[m * tile_m:(m + 1) * tile_m, n * tile_n:(n + 1) * tile_n], src=res_sb)
  return result
