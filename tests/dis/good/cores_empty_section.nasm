; Two cores, core 0's section empty (its core runs no instruction) and core
; 1's barrier naming only itself, so it waits for no one (LANGUAGE.md 2.7).
.arch trn2
.cores 2
.hbm  x f32 [128, 8] input = 2
.hbm  y f32 [128, 8] output
.core 0
.core 1
.sbuf t f32 [128, 8]
dma_copy dst=t, src=x
core_barrier data=y, cores=[1]
dma_copy dst=y, src=t
