; Benchmark select_reduce_bf16: select_reduce on a bf16 [128, 2048] tile with a u8 predicate, REPS times, chained through the Vector accumulator.
; bench-elements-per-rep: 262144
; bench-bytes-per-rep: 1310720   (tile bytes read + written per repetition)
;   build/nisa run bench/select_reduce_bf16.nasm --dump out/   (or scripts/bench)
.arch trn2
.equ  REPS, 10000
.equ  N, 2048
.hbm  m    f32 [128, 1] output
.hbm  out  bf16 [128, N] output
.sbuf x    bf16 [128, N]
.sbuf y    bf16 [128, N]
.sbuf pred u8  [128, N]
.sbuf tm   f32 [128, 1]

iota dst=x, base=0, partition_step=1, free_step=0.5
iota dst=pred, base=0, partition_step=1, free_step=1
select_reduce dst=y, predicate=pred, on_true=x, on_false=-1.0, reduce_cmd=reset_reduce
.rept i, REPS
select_reduce dst=y, predicate=pred, on_true=x, on_false=-1.0, reduce_cmd=reduce
.endr
select_reduce dst=y, predicate=pred, on_true=x, on_false=-1.0, reduce_cmd=reduce, reduce_res=tm
dma_copy dst=m, src=tm
dma_copy dst=out, src=y
