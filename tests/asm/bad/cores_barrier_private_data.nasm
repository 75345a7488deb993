; NKI 0.6 core_barrier: data "must be data in shared HBM"; a core's private
; HBM (a scratch tensor declared in its section) is refused.
.arch trn2
.cores 2
.hbm h f32 [128, 8] output
.core 0
.hbm mine f32 [128, 8] scratch
core_barrier data=mine, cores=[0, 1]
.core 1
core_barrier data=h, cores=[0, 1]
