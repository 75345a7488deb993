; dma_compute's srcs, a list of tensor views (S12.1): list syntax, each view
; checked like a tensor operand, shapes, count, scales, read-modify-write.
.hbm a f32 [64, 32] input
.hbm b f32 [64, 32] input
.hbm acc f32 [128, 32] inout
.sbuf t f32 [64, 32]
.sbuf wide f32 [64, 16]
.sbuf idx i32 [64, 1]
.psum p f32 [64, 32]
dma_compute dst=t, srcs=a, reduce_op=add
dma_compute dst=t, srcs=[a, bb], reduce_op=add
dma_compute dst=t, srcs=[a b], reduce_op=add
dma_compute dst=t, srcs=[a, wide], reduce_op=add
dma_compute dst=t, srcs=[a, p], reduce_op=add
dma_compute dst=t, srcs=[], reduce_op=add
dma_compute dst=t, srcs=[a, b, a, b, a, b, a, b, a, b, a, b, a, b, a, b, a], reduce_op=add
dma_compute dst=t, srcs=[a, b], reduce_op=add, scales=[1]
dma_compute dst=t, srcs=[a, b], reduce_op=add, scales=[2, 1]
dma_compute dst=t, srcs=[a, b], reduce_op=maximum
dma_compute dst=t, srcs=[a, b], reduce_op=add, unique_indices=false
dma_compute dst=t, srcs=[acc.ap(pattern=[[32, 64], [1, 32]], offset=0, vector_offset=idx, indirect_dim=0), t, a], reduce_op=add
dma_compute dst=t, srcs=[a[0:64, 0:40], b], reduce_op=add
