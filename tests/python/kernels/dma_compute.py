"""NKI 0.6 dma_compute (aws-neuron-sdk nki/api/nki/isa/__init__.py,
dma_compute): a plain sum of two HBM tensors with scales=[1.0, 1.0], and the
scatter read-modify-write dst(HBM)[indices] = dst(HBM)[indices] + src(SB)."""
import nki
import nki.isa as nisa
import nki.language as nl


@nki.jit
def sum_kernel(a, b):
  out = nl.ndarray(a.shape, dtype=nl.float32, buffer=nl.shared_hbm)
  nisa.dma_compute(out, [a, b], nl.add, scales=[1.0, 1.0])
  return out


@nki.jit
def scatter_add_kernel(src_data, indices, output):
  P, F = src_data.shape
  src = nl.ndarray((P, F), dtype=src_data.dtype, buffer=nl.sbuf)
  nisa.dma_copy(dst=src, src=src_data)
  idx = nl.ndarray((P, 1), dtype=nl.uint32, buffer=nl.sbuf)
  nisa.dma_copy(dst=idx, src=indices)
  rows = output.ap(pattern=[[F, P], [1, F]], vector_offset=idx, indirect_dim=0)
  nisa.dma_compute(dst=rows, srcs=[rows, src], reduce_op=nl.add)
  return output
