; read_write.nasm made race-free with core_barrier (SEMANTICS S16.5): core 0
; writes 'out'; at the first barrier core 1 learns of it and reads 'out'
; while core 0 reads it back too (two reads never race); at the second core
; 1 learns core 0 is done reading and overwrites rows 64..127 with 4.0.
; 'got' and 'back' hold 3.0 everywhere, 'out' 3.0 in rows 0..63, 4.0 after.
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
core_barrier data=out, cores=[0, 1]
.core 1
.sbuf t f32 [128, 8]
.sbuf u f32 [64, 8]
core_barrier data=out, cores=[0, 1]
dma_copy dst=t, src=out
dma_copy dst=got, src=t
core_barrier data=out, cores=[0, 1]
memset dst=u, value=4.0
dma_copy dst=out[64:128, :], src=u
