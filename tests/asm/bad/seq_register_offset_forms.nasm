; SEMANTICS S17.3: a register moves a view only as the scalar_offset of a
; dynamic HBM view of dma_copy (vector_offset and indirect= take index tensors;
; other instructions and on-chip tensors take no runtime offset).
.arch trn2
.hbm  x f32 [8, 4] input
.sbuf t f32 [1, 4]
.sbuf s f32 [8, 4]
.reg  r
register_move dst=r, src=2
dma_copy dst=t, src=x.ap(pattern=[[4, 1], [1, 4]], offset=0, vector_offset=r, indirect_dim=0)
dma_copy dst=t, src=s.ap(pattern=[[4, 1], [1, 4]], offset=0, scalar_offset=r, indirect_dim=0)
tensor_copy dst=t, src=s.ap(pattern=[[4, 1], [1, 4]], offset=0, scalar_offset=r, indirect_dim=0)
dma_copy dst=t, src=x.ap(pattern=[[4, 1], [1, 4]], offset=0, scalar_offset=r, indirect_dim=2)
