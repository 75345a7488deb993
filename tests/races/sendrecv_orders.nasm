; read_write.nasm made race-free with a sendrecv (SEMANTICS S16.5): core 0
; writes 'out', then the two cores swap a tile, then core 1 reads 'out':
; 'out' and 'got' hold 3.0 everywhere; 'swapped' gets core 0's 7.0 (core 1's
; r) next to core 1's 6.0 (core 0's r).
.arch trn2
.cores 2
.hbm out f32 [128, 8] output
.hbm got f32 [128, 8] output
.hbm swapped f32 [1, 2] output
.core 0
.sbuf t f32 [128, 8]
.sbuf s f32 [1, 1]
.sbuf r f32 [1, 1]
memset dst=t, value=3.0
dma_copy dst=out, src=t
memset dst=s, value=7.0
sendrecv src=s, dst=r, send_to_rank=1, recv_from_rank=1, pipe_id=0
dma_copy dst=swapped[0:1, 1:2], src=r
.core 1
.sbuf t f32 [128, 8]
.sbuf s f32 [1, 1]
.sbuf r f32 [1, 1]
memset dst=s, value=6.0
sendrecv src=s, dst=r, send_to_rank=0, recv_from_rank=0, pipe_id=0
dma_copy dst=t, src=out
dma_copy dst=got, src=t
dma_copy dst=swapped[0:1, 0:1], src=r
