; Benchmark tensor_copy_predicated_f32: tensor_copy_predicated of a f32 [128, 2048] tile under a u8 predicate (zero on elements 0..127 of each partition), REPS times, alternating reverse_pred.
; bench-elements-per-rep: 262144
; bench-bytes-per-rep: 2359296   (tile bytes read + written per repetition)
;   build/nisa run bench/tensor_copy_predicated_f32.nasm --dump out/   (or scripts/bench)
.arch trn2
.equ  REPS, 10000
.equ  N, 2048
.hbm  out  f32 [128, N] output
.sbuf x    f32 [128, N]
.sbuf y    f32 [128, N]
.sbuf pred u8  [128, N]

iota dst=x, base=0, partition_step=1, free_step=0.5
iota dst=pred, base=0, partition_step=0, free_step=1
tensor_scalar dst=pred, data=pred, op0=subtract, operand0=127.0
memset dst=y, value=-2.0
.rept i, REPS / 2
tensor_copy_predicated dst=y, src=x, predicate=pred
tensor_copy_predicated dst=y, src=x, predicate=pred, reverse_pred=true
.endr
dma_copy dst=out, src=y
