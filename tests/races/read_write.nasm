; SEMANTICS S16.5: core 1 reads the shared 'out' that core 0 writes, with no
; meeting between: --strict faults at core 1's read. Without --strict, core
; 0 runs first, so core 1 copies 3.0 everywhere into 'got'.
.arch trn2
.cores 2
.hbm out f32 [128, 8] output
.hbm got f32 [128, 8] output
.core 0
.sbuf t f32 [128, 8]
memset dst=t, value=3.0
dma_copy dst=out, src=t
.core 1
.sbuf t f32 [128, 8]
dma_copy dst=t, src=out
dma_copy dst=got, src=t
