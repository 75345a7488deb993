; SEMANTICS S16.5 through a view with a negative step: core 0 writes x[3, 0]
; and x[0, 0], core 1 reads flat elements 26, 25, 24 (x[3, 2], x[3, 1],
; x[3, 0]) with no meeting between: the race is on x[3, 0], the only one of
; them core 0 wrote. Without --strict, core 0 runs first: 'r' is
; [26, 25, -1] (x is iota: flat element k holds k).
.arch trn2
.cores 2
.hbm x f32 [4, 8] inout = iota
.hbm r f32 [1, 3] output
.core 0
.sbuf one f32 [1, 1]
memset dst=one, value=-1.0
dma_copy dst=x[3:4, 0:1], src=one
dma_copy dst=x[0:1, 0:1], src=one
.core 1
.sbuf u f32 [1, 3]
dma_copy dst=u, src=x.ap(pattern=[[24, 1], [-1, 3]], offset=26)
dma_copy dst=r, src=u
