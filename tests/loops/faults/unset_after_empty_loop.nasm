; SEMANTICS S17.1: a register set only inside a loop that ran no iteration
; (its trip count 0, read at run time) holds nothing: reading it after the
; loop is a runtime fault naming the reader and the register. The assembler
; accepts the program: in program order the loop's body sets v first.
.arch trn2
.hbm  n i32 [1, 1] input = 0
.hbm  y i32 [1, 1] output
.reg  i
.reg  count
.reg  v
register_load dst=count, src=n
fori_loop var=i, upper=count
register_move dst=v, src=7
end_loop
register_store dst=y, src=v
