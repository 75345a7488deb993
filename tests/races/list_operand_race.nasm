; SEMANTICS S16.5 through a list operand: core 1's dma_compute sums four
; sources, the fourth the shared 'w' that core 0 writes, with no meeting
; between: the race is on srcs entry 3. Without --strict core 0 runs first:
; 'sum' is 1 + 1 + 1 + 4 = 7.0 everywhere.
.arch trn2
.cores 2
.hbm w f32 [16, 8] output
.hbm sum f32 [16, 8] output
.core 0
.sbuf t f32 [16, 8]
memset dst=t, value=4.0
dma_copy dst=w, src=t
.core 1
.sbuf a f32 [16, 8]
.sbuf s f32 [16, 8]
memset dst=a, value=1.0
dma_compute dst=s, srcs=[a, a, a, w], reduce_op=add
dma_copy dst=sum, src=s
