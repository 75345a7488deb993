; S1.5: compute engines need aligned partition starts; DMA does not.
.hbm  h f32 [128, 8] input
.sbuf t f32 [128, 8]
.sbuf c f32 [128, 1]
memset dst=t[16:48], value=0
memset dst=t[32:96], value=0
tensor_reduce dst=c[1:128], data=t[1:128], op=add
dma_copy dst=t[5:9], src=h[5:9]
