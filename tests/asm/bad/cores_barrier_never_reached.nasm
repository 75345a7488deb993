; SEMANTICS S16.3: core 0 waits at its second core_barrier, which core 1
; never reaches (it has one).
.arch trn2
.cores 2
.hbm h f32 [128, 8] output
.core 0
.sbuf a f32 [128, 8]
memset dst=a, value=1.0
dma_copy dst=h[0:64, :], src=a[0:64, :]
core_barrier data=h, cores=[0, 1]
core_barrier data=h, cores=[0, 1]
.core 1
.sbuf a f32 [128, 8]
memset dst=a, value=2.0
dma_copy dst=h[64:128, :], src=a[64:128, :]
core_barrier data=h, cores=[1, 0]
