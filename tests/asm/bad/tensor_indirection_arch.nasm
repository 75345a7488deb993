; .indirect() views (indirect=IDX) exist from NeuronCore-v4 (trn3) on.
.arch trn2
.sbuf at  f32 [32, 64]
.sbuf bt  f32 [32, 32]
.sbuf idx i32 [32, 1]
tensor_copy dst=bt, src=at.ap(pattern=[[64, 32], [1, 32]], offset=0, indirect=idx)
