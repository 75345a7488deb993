; LANGUAGE.md 2.7: sections in order 0, 1, ..., each at most once, for a core
; the program has.
.arch trn2
.cores 2
.core 1
.core 0
.core 1
.core 2
.core -1
