"""NKI's tensor-addition tutorial kernel (aws-neuron-sdk
nki/examples/tensor_addition/tensor_addition_nki_kernels.py), re-expressed as
an NKI 0.6 kernel: [128, 512] tiles loaded with dma_copy, added with
tensor_tensor, stored back."""
import nki
import nki.isa as nisa
import nki.language as nl


@nki.jit(platform_target="trn1")
def nki_tensor_add(a_input, b_input):
  c_output = nl.ndarray(a_input.shape, dtype=a_input.dtype, buffer=nl.shared_hbm)
  M, N = a_input.shape
  TILE_M = 128
  TILE_N = 512
  assert a_input.shape == b_input.shape
  assert a_input.dtype == b_input.dtype
  assert M % TILE_M == 0 and N % TILE_N == 0

  for m in nl.affine_range(M // TILE_M):
    for n in nl.affine_range(N // TILE_N):
      a_tile = nl.ndarray(shape=(TILE_M, TILE_N), dtype=a_input.dtype, buffer=nl.sbuf)
      b_tile = nl.ndarray(shape=(TILE_M, TILE_N), dtype=b_input.dtype, buffer=nl.sbuf)
      nisa.dma_copy(dst=a_tile, src=a_input[m * TILE_M:(m + 1) * TILE_M, n * TILE_N:(n + 1) * TILE_N])
      nisa.dma_copy(dst=b_tile, src=b_input[m * TILE_M:(m + 1) * TILE_M, n * TILE_N:(n + 1) * TILE_N])
      c_tile = nl.ndarray(shape=(TILE_M, TILE_N), dtype=a_input.dtype, buffer=nl.sbuf)
      nisa.tensor_tensor(dst=c_tile, data1=a_tile, data2=b_tile, op=nl.add)
      nisa.dma_copy(dst=c_output[m * TILE_M:(m + 1) * TILE_M, n * TILE_N:(n + 1) * TILE_N], src=c_tile)

  return c_output
