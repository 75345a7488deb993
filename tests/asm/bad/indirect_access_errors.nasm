; Dynamic access patterns (vector_offset / scalar_offset, NKI 0.6 indirect DMA):
; where they are allowed, what the index must be, and malformed arguments.
.hbm  table f32 [128, 64] input
.hbm  cube  f32 [4, 8, 16] input
.sbuf tb    f32 [32, 64]
.sbuf idx   i32 [32, 1]
.sbuf fidx  f32 [32, 1]
.sbuf one   i32 [1, 1]
.sbuf wide  i32 [32, 2]
dma_copy dst=tb, src=table.ap(pattern=[[64, 32], [1, 64]], vector_offset=fidx)
dma_copy dst=tb, src=table.ap(pattern=[[64, 32], [1, 64]], vector_offset=wide)
dma_copy dst=tb, src=table.ap(pattern=[[64, 16], [1, 64]], vector_offset=idx)
dma_copy dst=tb, src=table.ap(pattern=[[64, 32], [1, 64]], vector_offset=idx, indirect_dim=1)
dma_copy dst=tb, src=table.ap(pattern=[[64, 32], [1, 64]], vector_offset=idx, scalar_offset=one)
dma_copy dst=tb, src=table.ap(pattern=[[64, 32], [1, 64]], indirect_dim=0)
dma_copy dst=tb, src=table.ap(pattern=[[64, 32], [1, 65]], vector_offset=idx)
dma_copy dst=tb.ap(pattern=[[64, 32], [1, 64]], vector_offset=idx), src=table[0:32, :]
tensor_tensor dst=tb, data1=tb, data2=table.ap(pattern=[[64, 32], [1, 64]], vector_offset=idx), op=add
dma_copy dst=tb[0:8, 0:16], src=cube.ap(pattern=[[16, 8], [1, 16]], scalar_offset=one, indirect_dim=3)
dma_copy dst=tb[0:8, 0:16], src=cube.ap(pattern=[[16, 8], [1, 16]], scalar_offset=idx, indirect_dim=0)
dma_copy dst=tb, src=table.ap(pattern=[[64, 32], [1, 64]], vector_offset=nosuch)
dma_copy dst=tb, src=table.ap([[64, 32], [1, 64]], 0, idx)
