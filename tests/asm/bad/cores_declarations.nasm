; LANGUAGE.md 2.7: SBUF and PSUM are each core's own, so in a program for
; several cores they are declared in a .core section; an HBM tensor in a
; section is that core's private HBM, scratch only.
.arch trn2
.cores 2
.hbm x f32 [128, 8] input
.sbuf t f32 [128, 8]
.psum p f32 [128, 8]
.core 0
.sbuf u f32 [128, 8]
.hbm y f32 [128, 8] output
.hbm z f32 [128, 8] input
.hbm s f32 [128, 8] scratch
dma_copy dst=u, src=x
