; A hang found while bounding the fuzz harness: nested .rept loops with empty
; bodies spun 10^12 times; now stopped by the .rept iteration limit.
.rept i, 1000000
.rept j, 1000000
; c

.endr
.endr
