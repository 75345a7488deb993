; SEMANTICS S17.2: a fori_loop whose upper bound, read at run time, is below
; its lower bound has a negative trip count: a runtime fault naming the loop.
.arch trn2
.hbm  n i32 [1, 1] input = -3
.hbm  y i32 [1, 1] output
.reg  i
.reg  hi
register_load dst=hi, src=n
fori_loop var=i, lower=0, upper=hi
register_store dst=y, src=i
end_loop
