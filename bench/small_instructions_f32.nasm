; Benchmark small_instructions_f32: dispatch overhead: 8 small instructions (tiles of [32, 16] float32 and bf16) per repetition, REPS times.
; bench-elements-per-rep: 4096
; bench-bytes-per-rep: 32768   (tile bytes read + written per repetition)
;   build/nisa run bench/small_instructions_f32.nasm --dump out/   (or scripts/bench)
.arch trn2
.equ  REPS, 25000
.equ  N, 2048
.hbm  out  f32 [32, 16] output
.hbm  m    f32 [32, 1] output
.sbuf a    f32 [32, 16]
.sbuf b    f32 [32, 16]
.sbuf h    bf16 [32, 16]
.sbuf p    u8  [32, 16]
.sbuf lo   f32 [32, 1]
.sbuf hi   f32 [32, 1]
.sbuf tm   f32 [32, 1]

iota dst=a, base=0, partition_step=1, free_step=0.25
iota dst=b, base=1, partition_step=0, free_step=0.5
iota dst=p, base=0, partition_step=1, free_step=1
iota dst=lo, base=2, partition_step=0, free_step=0
iota dst=hi, base=12, partition_step=0, free_step=0
range_select dst=b, on_true_tile=a, comp_op0=greater_equal, comp_op1=less, bound0=lo, bound1=hi, reduce_cmd=reset
.rept i, REPS
tensor_scalar dst=a, data=a, op0=multiply, operand0=0.5, op1=add, operand1=1.0
tensor_tensor dst=b, data1=a, data2=b, op=maximum
tensor_copy_predicated dst=a, src=b, predicate=p
range_select dst=a, on_true_tile=b, comp_op0=greater_equal, comp_op1=less, bound0=lo, bound1=hi, reduce_cmd=reduce
select_reduce dst=b, predicate=p, on_true=a, on_false=-1.0, reduce_cmd=reduce
activation dst=h, op=tanh, data=b, scale=0.01
tensor_reduce dst=tm, data=h, op=maximum
dma_copy dst=b, src=a
.endr
select_reduce dst=b, predicate=p, on_true=a, on_false=-1.0, reduce_cmd=reduce, reduce_res=tm
dma_copy dst=m, src=tm
dma_copy dst=out, src=b
