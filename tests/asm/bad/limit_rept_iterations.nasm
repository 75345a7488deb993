; Resource limit: .rept loops stop after 4,000,000 iterations in all, even
; with empty bodies (a nest of empty loops would otherwise spin 10^12 times),
; reported at the outermost .rept.
.arch trn2
.rept i, 1000000
.rept j, 1000000
; nothing but a comment
.endr
.endr
