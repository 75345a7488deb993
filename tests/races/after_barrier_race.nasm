; barrier_orders.nasm without its second barrier (SEMANTICS S16.5): core 1's
; overwrite of rows 64..127 is no longer ordered after core 0's read of
; 'out' that follows the first barrier. In the run's order core 0 runs to
; its end first, so --strict faults at core 1's write. Without --strict:
; 'back' and 'got' hold 3.0 everywhere, 'out' 3.0 in rows 0..63, 4.0 after.
.arch trn2
.cores 2
.hbm out f32 [128, 8] output
.hbm got f32 [128, 8] output
.hbm back f32 [128, 8] output
.core 0
.sbuf t f32 [128, 8]
.sbuf t2 f32 [128, 8]
memset dst=t, value=3.0
dma_copy dst=out, src=t
core_barrier data=out, cores=[0, 1]
dma_copy dst=t2, src=out
dma_copy dst=back, src=t2
.core 1
.sbuf t f32 [128, 8]
.sbuf u f32 [64, 8]
core_barrier data=out, cores=[0, 1]
dma_copy dst=t, src=out
dma_copy dst=got, src=t
memset dst=u, value=4.0
dma_copy dst=out[64:128, :], src=u
