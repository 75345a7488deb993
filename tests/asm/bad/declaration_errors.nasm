; HBM/SBUF declarations: roles, INIT only on input/inout, dimensions >= 1,
; rank, duplicates, name clashes with .equ.
.equ N, 4
.hbm  a f32 [4, 0] input
.hbm  b f32 [4] output = 1.0
.hbm  c i32 [4] input = 1.5
.sbuf d f32 [128]
.sbuf e f32 [128, 4]
.sbuf e f32 [128, 4]
.hbm  N f32 [4] input
.hbm  g f32 [4] input = iota extra
.hbm  h f32 [4
