; Resource limit: .rept expansion stops at 1,000,000 executed lines, reported at
; the outermost .rept (where the count must change), not a hang or OOM.
.arch trn2
.sbuf a f32 [128, 4]
.rept i, 1000
.rept j, 1001
memset dst=a, value=1.0
.endr
.endr
