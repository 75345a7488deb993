; Dynamic access patterns (NKI 0.6 indirect DMA): gather and scatter with
; vector_offset, a scalar_offset on a middle dimension, sliced index views,
; index views written as .ap(...), index_stride.
.hbm  table f32 [128, 64] input
.hbm  cube  f32 [4, 8, 16] input
.hbm  out   f32 [128, 64] output
.sbuf tb    f32 [32, 64]
.sbuf idx   i32 [32, 2]
.sbuf one   u32 [1, 1]
dma_copy dst=tb, src=table.ap(pattern=[[64, 32], [1, 64]], offset=0, vector_offset=idx[:, 1:2], indirect_dim=0), oob_mode=skip
dma_copy dst=out.ap(pattern=[[64, 32], [1, 32]], offset=32, vector_offset=idx[:, 0:1], indirect_dim=0), src=tb[:, 0:32]
dma_copy dst=tb[0:8, 0:16], src=cube.ap(pattern=[[16, 8], [1, 16]], offset=0, scalar_offset=one, indirect_dim=0)
dma_copy dst=tb[0:2, 0:16], src=cube.ap(pattern=[[128, 2], [1, 16]], offset=16, scalar_offset=one, indirect_dim=1)
dma_copy dst=tb[0:4, 0:1], src=table.ap(pattern=[[1, 4], [1, 1]], offset=0, vector_offset=idx.ap(pattern=[[2, 4], [1, 1]], offset=1), indirect_dim=0, index_stride=1)
dma_copy dst=tb[0:8, 0:16], src=cube.ap(pattern=[[16, 8], [1, 16]], offset=0, scalar_offset=one, indirect_dim=0, index_stride=16)
