; Benchmark activate2_f32: activate2 (tanh of data*imm0 - imm1, add-reduction into the Scalar accumulator) on a f32 [128, 2048] tile, REPS times (trn3).
; bench-elements-per-rep: 262144
; bench-bytes-per-rep: 2097152   (tile bytes read + written per repetition)
; bench-rtol: 1e-3   (add-reductions: NumPy sums in another order; 10M float32 terms whose row 51 partly cancels differ by 1.5e-4)
;   build/nisa run bench/activate2_f32.nasm --dump out/   (or scripts/bench)
.arch trn3
.equ  REPS, 5000
.equ  N, 2048
.hbm  m    f32 [128, 1] output
.hbm  out  f32 [128, N] output
.sbuf x    f32 [128, N]
.sbuf y    f32 [128, N]
.sbuf s    f32 [128, 1]
.sbuf tm   f32 [128, 1]

iota dst=x, base=0, partition_step=1, free_step=0.5
iota dst=s, base=0.001, partition_step=0.0001, free_step=0
activate2 dst=y, op=tanh, data=x, imm0=s, imm1=1.0, op0=multiply, op1=subtract, reduce_op=add, reduce_cmd=reset
.rept i, REPS
activate2 dst=y, op=tanh, data=x, imm0=s, imm1=1.0, op0=multiply, op1=subtract, reduce_op=add, reduce_cmd=reduce
.endr
activate2 dst=y, op=tanh, data=x, imm0=s, imm1=1.0, op0=multiply, op1=subtract, reduce_op=add, reduce_cmd=reduce, reduce_res=tm
dma_copy dst=m, src=tm
dma_copy dst=out, src=y
