; Access pattern errors (LANGUAGE.md 2.3): bounds, partition step, repeated
; destination elements, and malformed .ap(...) arguments.
.hbm  v   f32 [1, 64] input = iota
.sbuf tb  f32 [128, 64]
.sbuf tc  f32 [128, 64]
dma_copy dst=tb, src=v.ap(pattern=[[0, 128], [1, 65]])
dma_copy dst=tb, src=v.ap(pattern=[[0, 128], [1, 64]], offset=1)
tensor_tensor dst=tb.ap(pattern=[[64, 128], [0, 64]]), data1=tc, data2=tc, op=add
tensor_tensor dst=tb, data1=tc.ap(pattern=[[63, 128], [1, 64]]), data2=tc, op=add
tensor_tensor dst=tb, data1=tc.ap(pattern=[[64, 128], [1, 64]], offset=64), data2=tc, op=add
tensor_tensor dst=tb, data1=tc.ap(pattern=[[64, 128], [1, 64]], offst=64), data2=tc, op=add
tensor_tensor dst=tb, data1=tc.ap(pattern=[[64, 128], [1, 64]], offset=-1), data2=tc, op=add
tensor_tensor dst=tb, data1=tc.ap(pattern=[[64, 128], [1, 64], [1]]), data2=tc, op=add
tensor_tensor dst=tb, data1=tc.ap(offset=3), data2=tc, op=add
tensor_tensor dst=tb, data1=tc.ap(pattern=[[64, 128], [1, 0]]), data2=tc, op=add
dma_copy dst=tb, src=tc.ap(pattern=[[64, 128], [1, 64]], offset=0, offset=1)
dma_copy dst=tb, src=v.ap(pattern=[[0, 128], [1, 64]]
dma_copy dst=tb, src=v.ap(pattern=[[0, 128], [1, 64], [1, 1], [1, 1], [1, 1], [1, 1], [1, 1], [1, 1], [1, 1]])
dma_copy dst=tb, src=v.ap(pattern=[[1e3, 128], [1, 64]])
