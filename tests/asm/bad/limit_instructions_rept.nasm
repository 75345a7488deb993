; Resource limit: a program has at most 1,000,000 instructions, each .rept
; iteration's copy counted (here 1000 x 1001); the first one over is reported
; at its own line and the assembly stops (LANGUAGE.md 2.6).
.arch trn2
.sbuf a f32 [128, 4]
.rept i, 1000
.rept j, 1001
memset dst=a, value=1.0
.endr
.endr
