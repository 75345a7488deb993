; Issue 13, vecops batch: NKI 0.6 instructions of the Vector, Scalar and GpSimd
; engines (docs/SEMANTICS.md S4.20..), each form once or more.
.arch trn3
.sbuf a   f32 [128, 64]
.sbuf b   bf16 [128, 64]
.sbuf c   f32 [128, 64]
.sbuf col f32 [128, 1]
.psum q   f32 [128, 64]
tensor_tensor_scan dst=c, data0=a, data1=b, initial=0, op0=multiply, op1=add
tensor_tensor_scan dst=c[:, 32:64], data0=q[:, 0:32], data1=a[:, 0:32], initial=c[:, 31:32], op0=subtract, op1=max, reverse0=true, reverse1=true
tensor_tensor_scan dst=b, data0=a, data1=c, initial=col, op0=add, op1=multiply
affine_select dst=c, pattern=[[-1, 64]], channel_multiplier=1, on_true_tile=a, on_false_value=fp32.min, cmp_op=greater
affine_select dst=b, pattern=[[1, 8], [-8, 8]], channel_multiplier=-2, on_true_tile=a, on_false_value=0, offset=5
affine_select dst=a, pattern=[[0, 64]], channel_multiplier=0, on_true_tile=a, on_false_value=-1.5, cmp_op=ne
tensor_scalar_cumulative dst=c, src=a, op0=add, op1=add, imm0=0.0
tensor_scalar_cumulative dst=b, src=b, op0=multiply, op1=max, imm0=col, reduce_cmd=reduce
tensor_scalar_cumulative dst=c, src=q, op0=abs, op1=multiply, imm0=0, imm1=col, reduce_cmd=load_reduce
scalar_tensor_tensor dst=c, data=a, op0=multiply, operand0=col, op1=add, operand1=b
scalar_tensor_tensor dst=q, data=q, op0=subtract, operand0=2.5, op1=max, operand1=a, reverse0=true, reverse1=true
tensor_scalar_reduce dst=c, data=a, op0=add, operand0=1, reduce_op=add, reduce_res=col
tensor_scalar_reduce dst=b, data=q, op0=multiply, operand0=col, reduce_op=min, reverse0=true, reduce_cmd=reduce, reduce_res_negate=true
tensor_scalar_reduce dst=c, data=a, op0=abs, operand0=0, reduce_op=max, reduce_res=col, reduce_cmd=load_reduce, reduce_init=col
activation_reduce dst=c, op=exp, data=a, reduce_op=add, reduce_res=col
activation_reduce dst=b, op=relu, data=q, reduce_op=max, reduce_res=col, bias=col, scale=0.5
reciprocal dst=c, data=a
reciprocal dst=b, data=q
exponential dst=c, src=a
exponential dst=b, src=q, max_value=col, reduce_res=col, reduce_cmd=reset_reduce
exponential dst=c, src=a, max_value=3.0, reduce_cmd=load_reduce, reduce_init=col
exponential dst=c, src=a, reduce_res=col, reduce_cmd=reduce, reduce_init=0.0
tensor_partition_reduce dst=c[0:1, :], op=add, data=a
tensor_partition_reduce dst=a[32:33, 0:32], op=max, data=a[0:64, 32:64]
tensor_partition_reduce dst=c[0:1, :], op=average, data=c
.sbuf w   i32 [64, 16]
tensor_partition_reduce dst=w[32:33, :], op=bitwise_or, data=w
tensor_partition_reduce dst=w[0:1, :], op=bitwise_and, data=w[0:32, :]
