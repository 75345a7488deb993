; Resource limit (common/hbm_limits.hpp): an HBM tensor is at most 64 GiB. The total
; of all HBM tensors is a run's limit (nisa run --hbm-limit), not the assembler's:
; a through d (256 GiB in all) assemble.
.arch trn2
.hbm  a f32 [131072, 131072] input = 0
.hbm  b f32 [131072, 131072] output
.hbm  c f32 [131072, 131072] scratch
.hbm  d f32 [131072, 131072] scratch
.hbm  e u8  [1]            scratch
.hbm  f f32 [131072, 131073] scratch
