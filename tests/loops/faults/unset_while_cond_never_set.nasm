; SEMANTICS S17.1: a while_loop whose condition is set only in a skipped loop's
; body: the first test reads a register nothing set.
.arch trn2
.hbm  n i32 [1, 1] input = 0
.reg  i
.reg  count
.reg  c
register_load dst=count, src=n
fori_loop var=i, upper=count
register_move dst=c, src=1
end_loop
while_loop cond=c
register_move dst=c, src=0
end_loop
