; NKI 0.6 dma_compute: sums of 2 and 3 sources with dtype conversion, explicit
; scales, and the read-modify-write forms (scatter and gather with vector_offset).
.hbm  a    f32  [64, 32] input
.hbm  b    bf16 [64, 32] input
.hbm  acc  f32  [128, 32] inout
.sbuf s0   f32  [64, 32]
.sbuf s1   i32  [64, 32]
.sbuf idx  i32  [64, 1]
dma_compute dst=s0, srcs=[a, b], reduce_op=add
dma_compute dst=s1, srcs=[a, b, s0[:, 0:32]], reduce_op=add, scales=[1, 1, 1]
dma_compute dst=s0[0:32, 0:16], srcs=[a[0:32, 0:16]], reduce_op=add, unique_indices=true
dma_compute dst=acc.ap(pattern=[[32, 64], [1, 32]], offset=0, vector_offset=idx, indirect_dim=0), srcs=[acc.ap(pattern=[[32, 64], [1, 32]], offset=0, vector_offset=idx, indirect_dim=0), s0], reduce_op=add, oob_mode=skip
dma_compute dst=s0, srcs=[acc.ap(pattern=[[32, 64], [1, 32]], offset=0, vector_offset=idx, indirect_dim=0), s0], reduce_op=add
