; SEMANTICS S17.2: every fori_loop/while_loop is closed by an end_loop; the
; innermost loop left open is named.
.arch trn2
.hbm  y i32 [1, 1] output
.reg  i
.reg  j
fori_loop var=i, upper=4
fori_loop var=j, upper=i
register_store dst=y, src=j
end_loop
