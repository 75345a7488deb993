.sbuf t f32 [128, 4]
.rept a, 1000000
.rept b, 1000000
memset dst=t, value=a
.endr
.endr
