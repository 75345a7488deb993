; LANGUAGE.md 2.7: a core's section sees its own tensors and the shared HBM
; tensors, never another core's (core 1 names core 0's tile t, and core 0's
; scratch in private HBM).
.arch trn2
.cores 2
.hbm x f32 [128, 8] input
.core 0
.sbuf t f32 [128, 8]
.hbm mine f32 [128, 8] scratch
dma_copy dst=t, src=x
dma_copy dst=mine, src=t
.core 1
.sbuf u f32 [128, 8]
dma_copy dst=u, src=t
dma_copy dst=u, src=mine
dma_copy dst=u, src=x
