; Resource limit (common/check_tensor.cpp): HBM tensors are at most 1 GiB each and 4 GiB in all, so that
; `nisa run` cannot be made to allocate without bound.
.arch trn2
.hbm  a f32 [256, 1048576] input = 0
.hbm  b f32 [256, 1048576] output
.hbm  c f32 [256, 1048576] scratch
.hbm  d f32 [256, 1048576] scratch
.hbm  e u8  [1]            scratch
.hbm  f f32 [256, 1048577] scratch
