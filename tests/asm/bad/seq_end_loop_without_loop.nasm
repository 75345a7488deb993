; SEMANTICS S17.2: an end_loop closes an open loop; one too many is refused.
.arch trn2
.hbm  y i32 [1, 1] output
.reg  i
fori_loop var=i, upper=4
register_store dst=y, src=i
end_loop
end_loop
