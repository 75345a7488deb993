; Benchmark activate2_bf16: activate2 (tanh of data*imm0 - imm1, add-reduction into the Scalar accumulator) on a bf16 [128, 2048] tile, REPS times (trn3).
; bench-elements-per-rep: 262144
; bench-bytes-per-rep: 1048576   (tile bytes read + written per repetition)
; bench-rtol: 1e-2   (one bf16 ulp: float32 activations that differ by an ulp can round to neighbouring bf16 values)
;   build/nisa run bench/activate2_bf16.nasm --dump out/   (or scripts/bench)
.arch trn3
.equ  REPS, 5000
.equ  N, 2048
.hbm  m    f32 [128, 1] output
.hbm  out  bf16 [128, N] output
.sbuf x    bf16 [128, N]
.sbuf y    bf16 [128, N]
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
