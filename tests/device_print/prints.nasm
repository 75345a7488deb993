; device_print (docs/SEMANTICS.md S15.1), run by run_prints.py: each print
; shows its tensor as it is at that line. Every value follows from the iota
; inputs and the memset literals; prints.stdout is the expected text,
; derived by hand (and held to NumPy's str() by run_prints.py).
.arch trn2
.hbm  x    f32 [4, 8]    input = iota
.hbm  a    f32 [128, 8]  input = iota
.hbm  n    i32 [128, 64] input = iota
.hbm  y    f32 [4, 8]    output
.hbm  z    f32 [128, 8]  output
.sbuf t    f32 [4, 8]
.sbuf acc  f32 [128, 8]
.sbuf ti   i32 [128, 64]
.sbuf tb   bf16 [2, 3]
.sbuf ts   f32 [1, 4]
.psum pp   f32 [2, 2]

dma_copy dst=t, src=x
device_print print_prefix="t =", tensor=t
tensor_scalar dst=t, data=t, op0=multiply, operand0=0.5, op1=add, operand1=0.25
device_print print_prefix="t*0.5+0.25, rows 1-2, even columns:", tensor=t[1:3, 0:8:2]
device_print print_prefix="", tensor=x
device_print print_prefix="x reversed; # , =", tensor=x.ap(pattern=[[8, 2], [-1, 3]], offset=2)
dma_copy dst=y, src=t

; dead stores (S14.1): the first memset is overwritten whole by the second,
; but the print between reads it, so it runs
memset dst=t, value=1.0
device_print print_prefix="ones", tensor=t[0:1, :]
memset dst=t, value=2.0
device_print print_prefix="twos", tensor=t[0:1, :]

; shared steps: the three iterations decode to one step each; each print
; shows its iteration's values, at this one line
dma_copy dst=acc, src=a
.rept i, 3
tensor_scalar dst=acc, data=acc, op0=add, operand0=1.5
device_print print_prefix="acc", tensor=acc[0:2, 0:4]
.endr
device_print print_prefix="acc, all partitions", tensor=acc
dma_copy dst=z, src=acc

dma_copy dst=ti, src=n
device_print print_prefix="n", tensor=ti
memset dst=tb, value=0.3333333
device_print print_prefix="bf16", tensor=tb
memset dst=ts[0:1, 0:1], value=1e-5
memset dst=ts[0:1, 1:2], value=250.0
memset dst=ts[0:1, 2:3], value=-3.5
memset dst=ts[0:1, 3:4], value=-inf
device_print print_prefix="scientific", tensor=ts
dma_copy dst=pp, src=x[0:2, 0:2]
device_print print_prefix="psum", tensor=pp
