; Resource limit: .rept bodies run at most 4,000,000 lines in all (here 1000
; .rept lines and 1000 x 2000 x 2 .equ lines: no instruction, so only this
; limit stops them), reported at the outermost .rept (where the count must
; change), not a hang or OOM (LANGUAGE.md 2.6).
.arch trn2
.rept i, 1000
.rept j, 2000
.equ X, j
.equ Y, j
.endr
.endr
