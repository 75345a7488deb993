; LANGUAGE.md 2.7: .cores once, before every declaration and instruction;
; .core only in a program for several cores.
.arch trn2
.core 0
.hbm x f32 [128, 8] input
.cores 2
.cores 2
