; Tensor Indirection (NKI 0.6 .indirect(), NeuronCore-v4) on tensor_copy:
; a gather, a scatter, both from PSUM, an index view written as .ap(...).
.arch trn3
.sbuf at  f32 [32, 64]
.sbuf bt  bf16 [32, 32]
.sbuf idx i32 [32, 2]
.psum pt  f32 [32, 64]
tensor_copy dst=bt, src=at.ap(pattern=[[64, 32], [2, 32]], offset=3, indirect=idx[:, 1:2])
tensor_copy dst=at.ap(pattern=[[64, 32], [1, 32]], offset=0, indirect=idx), src=bt, engine=scalar
tensor_copy dst=at.ap(pattern=[[64, 32], [1, 8]], offset=0, indirect=idx.ap(pattern=[[2, 32], [1, 1]], offset=0)), src=pt.ap(pattern=[[64, 32], [1, 8]], offset=0, indirect=idx[:, 0:1])
