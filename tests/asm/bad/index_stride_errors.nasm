; Dynamic access patterns with index_stride (the stride of the NKI view's
; indirect_dim), and index views written as .ap(...) of an SBUF tile.
.hbm  table f32 [128, 64] input
.sbuf tb    f32 [32, 64]
.sbuf idx   i32 [32, 1]
.sbuf fidx  f32 [32, 1]
.sbuf one   i32 [1, 1]
.sbuf wide  i32 [32, 2]
dma_copy dst=tb, src=table.ap(pattern=[[64, 32], [1, 64]], index_stride=64)
dma_copy dst=tb, src=table.ap(pattern=[[64, 32], [1, 64]], vector_offset=idx, index_stride=0)
dma_copy dst=tb, src=table.ap(pattern=[[64, 32], [1, 64]], vector_offset=idx, index_stride=-64)
dma_copy dst=tb, src=table.ap(pattern=[[64, 32], [1, 64]], vector_offset=idx, index_stride=8193)
dma_copy dst=tb, src=table.ap(pattern=[[64, 32], [1, 64]], vector_offset=idx, index_stride=64, index_stride=1)
dma_copy dst=tb, src=table.ap(pattern=[[64, 32], [1, 64]], vector_offset=idx, index_stride=one)
dma_copy dst=tb[0:1, 0:64], src=table.ap(pattern=[[64, 1], [1, 64]], offset=8129, scalar_offset=one, index_stride=1)
dma_copy dst=tb, src=table.ap(pattern=[[64, 32], [1, 64]], vector_offset=wide.ap(pattern=[[2, 32], [1, 2]], offset=0), index_stride=1)
dma_copy dst=tb, src=table.ap(pattern=[[64, 32], [1, 64]], vector_offset=idx.ap(pattern=[[1, 32], [1, 1]], offset=0, scalar_offset=one))
dma_copy dst=tb, src=table.ap(pattern=[[64, 32], [1, 64]], vector_offset=fidx.ap(pattern=[[1, 32], [1, 1]]))
dma_copy dst=tb, src=table.ap(pattern=[[64, 32], [1, 64]], vector_offset=idx.ap(pattern=[[1, 32], [1, 1]], offset=1))
dma_copy dst=tb, src=table.ap(pattern=[[64, 32], [1, 64]], vector_offset=nosuch.ap(pattern=[[1, 32], [1, 1]]))
