; SEMANTICS S16.5: both cores write rows 64..127 of the shared 'out', and no
; meeting orders the two writes: --strict faults at core 1's (the later in
; the run's fixed order). Without --strict, core 0 runs first: rows 0..63
; hold 1.0 (core 0's), rows 64..127 2.0 (core 1's, written last).
.arch trn2
.cores 2
.hbm out f32 [128, 8] output
.core 0
.sbuf t f32 [128, 8]
memset dst=t, value=1.0
dma_copy dst=out, src=t
.core 1
.sbuf t f32 [64, 8]
memset dst=t, value=2.0
dma_copy dst=out[64:128, :], src=t
