; Benchmark tensor_scalar_f32: tensor_scalar (data * 0.5 + column) on a f32 [128, 2048] tile, REPS times, fed back into itself.
; bench-elements-per-rep: 262144
; bench-bytes-per-rep: 2097152   (tile bytes read + written per repetition)
;   build/nisa run bench/tensor_scalar_f32.nasm --dump out/   (or scripts/bench)
.arch trn2
.equ  REPS, 10000
.equ  N, 2048
.hbm  out  f32 [128, N] output
.sbuf x    f32 [128, N]
.sbuf c    f32 [128, 1]

iota dst=x, base=0, partition_step=1, free_step=0.5
iota dst=c, base=1, partition_step=1, free_step=0
.rept i, REPS
tensor_scalar dst=x, data=x, op0=multiply, operand0=0.5, op1=add, operand1=c
.endr
dma_copy dst=out, src=x
