; .indirect() views on streamed compute instructions (NeuronCore-v4) and NKI
; 0.7's activation/activate2 engine=gpsimd.
.arch trn3
.sbuf at  f32 [32, 64]
.sbuf bt  bf16 [32, 32]
.sbuf ct  f32 [32, 32]
.sbuf rt  f32 [32, 1]
.sbuf idx i32 [32, 2]
tensor_tensor dst=bt, data1=at.ap(pattern=[[64, 32], [2, 32]], offset=3, indirect=idx[:, 1:2]), data2=ct, op=add
tensor_scalar dst=at.ap(pattern=[[64, 32], [1, 32]], offset=0, indirect=idx), data=bt, op0=multiply, operand0=2.0
activation dst=ct, op=exp, data=at.ap(pattern=[[64, 32], [1, 32]], offset=0, indirect=idx[:, 0:1]), scale=0.5
exponential dst=at.ap(pattern=[[64, 32], [1, 32]], offset=0, indirect=idx), src=ct, reduce_res=rt, reduce_cmd=reset_reduce
activation dst=ct, op=relu, data=ct, engine=gpsimd
activate2 dst=ct, op=relu, data=ct, imm0=2.0, imm1=1.0, op0=multiply, op1=add, engine=gpsimd
