; Benchmark: select_reduce on a float32 [128, 2048] tile with a u8 predicate,
; REPS times, chained through the Vector accumulator (reduce).
; Elements processed: REPS * 128 * 2048.
;   /usr/bin/time -v build/nisa run bench/select_reduce_f32.nasm
; (subtract a run with REPS = 1 to separate start-up).
; bench-elements-per-rep: 262144
; bench-bytes-per-rep: 2359296   (tile bytes read + written per repetition)
.arch trn2
.equ  REPS, 10000
.equ  N, 2048
.hbm  m    f32 [128, 1] output
.sbuf x    f32 [128, N]
.sbuf y    f32 [128, N]
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
