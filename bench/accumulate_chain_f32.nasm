; Benchmark accumulate_chain_f32: long chains through both accumulators on float32 [128, 2048]: per repetition a range_select and a select_reduce reduce into the Vector accumulator and an activation exp adds into the Scalar one.
; bench-elements-per-rep: 786432
; bench-bytes-per-rep: 6553600   (tile bytes read + written per repetition)
; bench-rtol: 1e-4   (add-reductions: NumPy sums in another order)
;   build/nisa run bench/accumulate_chain_f32.nasm --dump out/   (or scripts/bench)
.arch trn2
.equ  REPS, 4000
.equ  N, 2048
.hbm  mv   f32 [128, 1] output
.hbm  ms   f32 [128, 1] output
.sbuf x    f32 [128, N]
.sbuf y    f32 [128, N]
.sbuf e    f32 [128, N]
.sbuf pred u8  [128, N]
.sbuf lo   f32 [128, 1]
.sbuf hi   f32 [128, 1]
.sbuf tv   f32 [128, 1]
.sbuf ts   f32 [128, 1]

iota dst=x, base=0, partition_step=1, free_step=0.5
iota dst=pred, base=0, partition_step=1, free_step=1
iota dst=lo, base=10, partition_step=3, free_step=0
iota dst=hi, base=1500, partition_step=1, free_step=0
range_select dst=y, on_true_tile=x, comp_op0=greater_equal, comp_op1=less, bound0=lo, bound1=hi, reduce_cmd=reset
activation dst=e, op=exp, data=x, scale=-0.01, reduce_op=add, reduce_cmd=reset
.rept i, REPS
range_select dst=y, on_true_tile=x, comp_op0=greater_equal, comp_op1=less, bound0=lo, bound1=hi, reduce_cmd=reduce, range_start=(i % 8) * 100
select_reduce dst=y, predicate=pred, on_true=x, on_false=-1.0, reduce_cmd=reduce
activation dst=e, op=exp, data=x, scale=-0.01, reduce_op=add, reduce_cmd=reduce
.endr
select_reduce dst=y, predicate=pred, on_true=x, on_false=-1.0, reduce_cmd=reduce, reduce_res=tv
activation dst=e, op=exp, data=x, scale=-0.01, reduce_op=add, reduce_cmd=reduce, reduce_res=ts
dma_copy dst=mv, src=tv
dma_copy dst=ms, src=ts
