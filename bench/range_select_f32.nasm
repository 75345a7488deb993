; Benchmark: range_select on a float32 [128, 2048] tile, REPS times, chained
; through the Vector accumulator (reduce), reduce_res read at the end.
; Elements processed: REPS * 128 * 2048.
;   /usr/bin/time -v build/nisa run bench/range_select_f32.nasm
; (subtract a run with REPS = 1 to separate start-up).
; bench-elements-per-rep: 262144
; bench-bytes-per-rep: 2097152   (tile bytes read + written per repetition)
.arch trn2
.equ  REPS, 10000
.equ  N, 2048
.hbm  m    f32 [128, 1] output
.sbuf x    f32 [128, N]
.sbuf y    f32 [128, N]
.sbuf lo   f32 [128, 1]
.sbuf hi   f32 [128, 1]
.sbuf tm   f32 [128, 1]

iota dst=x, base=0, partition_step=1, free_step=0.5
iota dst=lo, base=10, partition_step=3, free_step=0
iota dst=hi, base=1500, partition_step=1, free_step=0
range_select dst=y, on_true_tile=x, comp_op0=greater_equal, comp_op1=less, bound0=lo, bound1=hi, reduce_cmd=reset_reduce
.rept i, REPS
range_select dst=y, on_true_tile=x, comp_op0=greater_equal, comp_op1=less, bound0=lo, bound1=hi, reduce_cmd=reduce, range_start=(i % 8) * 100
.endr
range_select dst=y, on_true_tile=x, comp_op0=greater_equal, comp_op1=less, bound0=lo, bound1=hi, reduce_cmd=reduce, reduce_res=tm
dma_copy dst=m, src=tm
