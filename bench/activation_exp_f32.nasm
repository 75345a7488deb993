; Benchmark activation_exp_f32: activation exp (scale, bias tile) on a f32 [128, 2048] tile with add-reduction into the Scalar accumulator, REPS times.
; bench-elements-per-rep: 262144
; bench-bytes-per-rep: 2097152   (tile bytes read + written per repetition)
; bench-rtol: 1e-4   (add-reductions: NumPy sums in another order)
;   build/nisa run bench/activation_exp_f32.nasm --dump out/   (or scripts/bench)
.arch trn2
.equ  REPS, 5000
.equ  N, 2048
.hbm  m    f32 [128, 1] output
.hbm  out  f32 [128, N] output
.sbuf x    f32 [128, N]
.sbuf y    f32 [128, N]
.sbuf b    f32 [128, 1]
.sbuf tm   f32 [128, 1]

iota dst=x, base=0, partition_step=1, free_step=0.5
iota dst=b, base=-1, partition_step=0.001, free_step=0
activation dst=y, op=exp, data=x, bias=b, scale=-0.001, reduce_op=add, reduce_cmd=reset
.rept i, REPS
activation dst=y, op=exp, data=x, bias=b, scale=-0.001, reduce_op=add, reduce_cmd=reduce
.endr
activation dst=y, op=exp, data=x, bias=b, scale=-0.001, reduce_op=add, reduce_cmd=reduce, reduce_res=tm
dma_copy dst=m, src=tm
dma_copy dst=out, src=y
