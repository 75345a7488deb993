"""The indirect gather and scatter kernels of NKI 0.6's dma_copy docstring
(aws-neuron-sdk nki/api/nki/isa/__init__.py, dma_copy, "Indirect gather
example" / "Indirect scatter example"), as written there, plus the nki-aps
"Scalar Dynamic Access" example's scalar_dynamic_dma."""
import nki
import nki.isa as nisa
import nki.language as nl


@nki.jit
def indirect_gather_kernel(data, indices):
  P, F = indices.shape[0], data.shape[1]
  output = nl.ndarray((P, F), dtype=data.dtype, buffer=nl.shared_hbm)

  idx = nl.ndarray((P, 1), dtype=nl.uint32, buffer=nl.sbuf)
  nisa.dma_copy(dst=idx, src=indices)

  dst = nl.ndarray((P, F), dtype=data.dtype, buffer=nl.sbuf)
  nisa.dma_copy(
      dst=dst,
      src=data.ap(
          pattern=[[F, P], [1, F]],
          vector_offset=idx,
          indirect_dim=0,
      ),
  )

  nisa.dma_copy(dst=output, src=dst)
  return output


@nki.jit
def indirect_scatter_kernel(src_data, indices, output):
  P, F = src_data.shape

  src = nl.ndarray((P, F), dtype=src_data.dtype, buffer=nl.sbuf)
  nisa.dma_copy(dst=src, src=src_data)

  idx = nl.ndarray((P, 1), dtype=nl.uint32, buffer=nl.sbuf)
  nisa.dma_copy(dst=idx, src=indices)

  nisa.dma_copy(
      dst=output.ap(
          pattern=[[F, P], [1, F]],
          vector_offset=idx,
          indirect_dim=0,
      ),
      src=src,
  )
  return output


@nki.jit
def scalar_dynamic_dma(A):
  assert A.shape == (512, 512)
  batch_idx = nl.ndarray((1, 1), nl.int32, buffer=nl.sbuf)
  nisa.memset(batch_idx, value=3 * 128)
  result = nl.ndarray((128, 256), A.dtype, buffer=nl.shared_hbm)
  nisa.dma_copy(src=A.ap(pattern=[[512, 128], [1, 256]], offset=0, scalar_offset=batch_idx, indirect_dim=0),
                dst=result[...])
  return result
