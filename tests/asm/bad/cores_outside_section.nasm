; LANGUAGE.md 2.7: in a program for several cores, an instruction belongs to
; the .core section of the core that runs it.
.arch trn2
.cores 2
.hbm x f32 [128, 8] input
.hbm y f32 [128, 8] output
dma_copy dst=y, src=x
.core 0
dma_copy dst=y, src=x
