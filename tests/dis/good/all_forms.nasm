; Every instruction of the spec with its operand forms: whole and sliced views,
; HBM steps, float and int32 scalars, tensor-or-scalar both ways, optional
; operands present and absent, enums by alias, bools, negative integers.
.arch trn3
.equ  W, 64

.hbm  x     f32 [128, W] input = iota
.hbm  c     i32 [4, 8]   inout = -7
.hbm  h     bf16 [2, 3, 4] input = 0.1
.hbm  y     f32 [128, W] output
.hbm  z     f32 [64, 21] output
.sbuf a     f32 [128, W]
.sbuf col   f32 [128, 1]
.sbuf m     u8  [128, W]
.sbuf ii    i32 [128, W + 1]
.psum ps    f32 [128, W]
.sbuf col2  f32 [64, 1] @ 4096
.sbuf alias f32 [64, 1] @ 4096    ; aliases col2 on purpose
.sbuf ci    i32 [4, 8]

dma_copy dst=a, src=x
dma_copy dst=ci, src=c
memset dst=col, value=-inf
memset dst=col2, value=fp32.max
memset dst=ii[0:64, 0:10], value=-5
iota dst=ii, base=3, free_step=2
iota dst=ii[:, 1:], partition_step=-1
tensor_scalar dst=a[0:64, 0:32], data=a[64:128, 32:64], op0=mul, operand0=1.5, op1=add, operand1=col2
tensor_scalar dst=a, data=a, op0=subtract, operand0=col, reverse0=true
activation dst=ps, op=exp, data=a, bias=col, scale=2.0
activation dst=a, op=tanh, data=ps, bias=0.5, scale=col, reduce_op=add, reduce_res=col, reduce_cmd=reset_reduce
.rept i, 3
range_select dst=a[:, i*8:i*8+8], on_true_tile=a[:, i*8:i*8+8], comp_op0=ge, comp_op1=lt, bound0=col, bound1=col, reduce_cmd=reset_reduce, reduce_res=col, range_start=-3 + i
.endr
range_select dst=a, on_true_tile=a, comp_op0=equal, comp_op1=greater, bound0=col, bound1=col
tensor_copy_predicated dst=a, src=0.5, predicate=m, reverse_pred=true
tensor_copy_predicated dst=ii[:, 0:W], src=-2, predicate=m
tensor_copy_predicated dst=a, src=ps, predicate=m
.loc 100
nonzero_with_count dst=ii, src=a, index_offset=-7
nonzero_with_count dst=ii, src=a, padding_val=0
activate2 dst=a, op=gelu, data=a, imm0=0.25, imm1=col, op0=multiply, op1=add, reduce_op=add, reduce_res=col, reduce_cmd=reduce
activate2 dst=a, op=relu, data=a, imm0=col, imm1=col, op0=subtract, op1=bypass, relu_param=0.01, reverse0=true
tensor_tensor dst=a, data1=a, data2=ps, op=max
tensor_reduce dst=col, data=a, op=abs_max, negate=true
tensor_reduce dst=col, data=a[:, 0:1], op=min
select_reduce dst=a, predicate=m, on_true=a, on_false=col
select_reduce dst=a, predicate=m, on_true=a, on_false=-1.25e-7, reduce_res=col, reduce_cmd=reset_reduce, reverse_pred=true
.loc 7
dma_copy dst=z, src=a[0:64, 0:21]
dma_copy dst=y[0:128:2, 1:64:3], src=a[0:64, 0:21]
dma_copy dst=ps, src=a
