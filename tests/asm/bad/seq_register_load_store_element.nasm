; SEMANTICS S17.1: register_load and register_store move exactly one int32
; element of SBUF or HBM.
.arch trn2
.hbm  f f32 [1, 1] input
.hbm  v i32 [1, 4] input
.sbuf s i32 [4, 1]
.psum p i32 [1, 1]
.reg  r
register_load dst=r, src=f
register_load dst=r, src=v
register_load dst=r, src=s
register_load dst=r, src=p
register_move dst=r, src=1
register_store dst=v, src=r
register_store dst=f, src=r
