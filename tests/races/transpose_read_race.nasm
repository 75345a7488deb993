; SEMANTICS S16.5 through dma_transpose's HBM source: core 0 writes x[1, 2],
; core 1 reads all of x transposed, with no meeting between: the race is on
; x[1, 2]. Without --strict, core 0 runs first: 'y' is x transposed (x is
; iota: x[r, c] = 8r + c) with -1.0 at x[1, 2].
.arch trn2
.cores 2
.hbm x f32 [4, 8] inout = iota
.hbm y f32 [8, 4] output
.core 0
.sbuf one f32 [1, 1]
memset dst=one, value=-1.0
dma_copy dst=x[1:2, 2:3], src=one
.core 1
.sbuf t f32 [8, 4]
dma_transpose dst=t, src=x
dma_copy dst=y, src=t
