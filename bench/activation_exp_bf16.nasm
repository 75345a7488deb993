; Benchmark activation_exp_bf16: activation exp (scale, bias tile) on a bf16 [128, 2048] tile with add-reduction into the Scalar accumulator, REPS times.
; bench-elements-per-rep: 262144
; bench-bytes-per-rep: 1048576   (tile bytes read + written per repetition)
; bench-rtol: 1e-2   (one bf16 ulp: float32 activations that differ by an ulp can round to neighbouring bf16 values)
;   build/nisa run bench/activation_exp_bf16.nasm --dump out/   (or scripts/bench)
.arch trn2
.equ  REPS, 5000
.equ  N, 2048
.hbm  m    f32 [128, 1] output
.hbm  out  bf16 [128, N] output
.sbuf x    bf16 [128, N]
.sbuf y    bf16 [128, N]
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
