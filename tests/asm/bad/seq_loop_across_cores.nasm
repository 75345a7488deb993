; SEMANTICS S17.2: a loop is one core's: it is closed before the next core's
; section starts.
.arch trn2
.cores 2
.core 0
.sbuf a f32 [128, 8]
.reg  i
fori_loop var=i, upper=2
memset dst=a, value=1.0
.core 1
.sbuf a f32 [128, 8]
memset dst=a, value=2.0
