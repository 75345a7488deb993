; Memories per operand (S1.6): GpSimd reads/writes SBUF only; PSUM is never a
; DMA source; compute engines do not touch HBM.
.hbm  h f32 [128, 8] input
.psum p f32 [128, 8]
.psum pi i32 [128, 9]
.sbuf s f32 [128, 8]
iota dst=p
dma_copy dst=s, src=p
memset dst=h, value=0
nonzero_with_count dst=pi, src=s
