; Slices: within the tensor, no step on an SBUF/PSUM partition dimension,
; positive steps, not empty, no more slices than dimensions.
.hbm  h f32 [16, 32] input
.sbuf t f32 [128, 64]
memset dst=t[0:128, 0:65], value=0
memset dst=t[0:128:2], value=0
memset dst=t[:, 4:4], value=0
memset dst=t[:, 0:8:0], value=0
memset dst=t[0, 0, 0], value=0
memset dst=t[128], value=0
dma_copy dst=t[0:8, 0:16], src=h[0:16:2, 0:64:4]
