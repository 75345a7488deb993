; Two cores with only core 0's section: a section never opened is a core with
; no instructions (LANGUAGE.md 2.7), and a barrier naming both cores at core 0
; then waits for a core that never comes, so this one names only core 0.
.arch trn2
.cores 2
.hbm  y f32 [64, 4] output
.core 0
.sbuf t f32 [64, 4]
memset dst=t, value=3
core_barrier data=y, cores=0
dma_copy dst=y, src=t
