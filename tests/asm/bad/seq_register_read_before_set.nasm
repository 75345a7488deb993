; SEMANTICS S17.1: a register is set (register_move, register_load, register_op
; or a fori_loop's var) before any instruction reads it, in program order: as a
; register_move's src, a loop bound, a while_loop's cond, a register_store's
; src and a scalar_offset; register_op dst=r, src0=r reads r before it sets it.
.arch trn2
.hbm  x f32 [8, 4] input
.hbm  y i32 [1, 1] output
.sbuf t f32 [1, 4]
.reg  a
.reg  b
.reg  c
.reg  i
register_move dst=a, src=b
register_store dst=y, src=b
dma_copy dst=t, src=x.ap(pattern=[[4, 1], [1, 4]], offset=0, scalar_offset=c, indirect_dim=0)
register_op dst=c, src0=c, src1=1, op=add
register_store dst=y, src=c
fori_loop var=i, upper=b
while_loop cond=b
