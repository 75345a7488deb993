; SEMANTICS S17.1: a register operand names a register declared with .reg.
.arch trn2
.hbm  y i32 [1, 1] output
.reg  r
register_move dst=q, src=1
register_move dst=r, src=q
register_store dst=y, src=rr
fori_loop var=k, upper=3
