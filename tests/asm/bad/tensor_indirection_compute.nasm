; .indirect() views (indirect=IDX) on tensor_tensor, tensor_scalar, activation,
; activate2, exponential and tensor_scalar_reduce
; (NeuronCore-v4): each docstring's "Tensor indirection" paragraph, rule by rule.
.arch trn3
.sbuf at  f32 [128, 64]
.sbuf bt  f32 [128, 32]
.sbuf ct  f32 [128, 32]
.sbuf big i32 [128, 2]
.psum ps  f32 [128, 64]
; tensor_tensor: the index of every .indirect() view starts on a multiple of 32
tensor_tensor dst=bt.ap(pattern=[[32, 32], [1, 32]], offset=0, indirect=big[16:48, 0:1]), data1=ps[0:32, 0:32], data2=ct[0:32, :], op=add
; tensor_tensor: an indirect data1 starts on its index's partition
tensor_tensor dst=bt[32:64, :], data1=at.ap(pattern=[[64, 32], [1, 32]], offset=2048, indirect=big[0:32, 0:1]), data2=ct[32:64, :], op=add
; tensor_tensor: a scattered dst's index starts on data1's partition (data1 in SBUF)
tensor_tensor dst=bt.ap(pattern=[[32, 32], [1, 32]], offset=0, indirect=big[0:32, 0:1]), data1=at[32:64, 0:32], data2=ct[32:64, :], op=add
; tensor_tensor: both indirect, data1 in PSUM: the two indices start on one partition
tensor_tensor dst=bt.ap(pattern=[[32, 32], [1, 32]], offset=0, indirect=big[0:32, 0:1]), data1=ps.ap(pattern=[[64, 32], [1, 32]], offset=2048, indirect=big[32:64, 0:1]), data2=ct[32:64, :], op=add
; tensor_tensor: data2 does not take tensor indirection
tensor_tensor dst=bt[0:32, :], data1=ct[0:32, :], data2=at.ap(pattern=[[64, 32], [1, 32]], offset=0, indirect=big[0:32, 0:1]), op=add
; tensor_scalar: the index starts on a multiple of 32
tensor_scalar dst=bt.ap(pattern=[[32, 32], [1, 32]], offset=0, indirect=big[16:48, 0:1]), data=ps[0:32, 0:32], op0=add, operand0=1.0
; tensor_scalar: an indirect data starts on its index's partition
tensor_scalar dst=bt[32:64, :], data=at.ap(pattern=[[64, 32], [1, 32]], offset=2048, indirect=big[0:32, 0:1]), op0=add, operand0=1.0
; tensor_scalar: a scattered dst's index starts on data's partition (data in SBUF)
tensor_scalar dst=bt.ap(pattern=[[32, 32], [1, 32]], offset=0, indirect=big[0:32, 0:1]), data=at[32:64, 0:32], op0=add, operand0=1.0
; tensor_scalar: both indirect, data in PSUM: the two indices start on one partition
tensor_scalar dst=bt.ap(pattern=[[32, 32], [1, 32]], offset=0, indirect=big[0:32, 0:1]), data=ps.ap(pattern=[[64, 32], [1, 32]], offset=2048, indirect=big[32:64, 0:1]), op0=add, operand0=1.0
; tensor_scalar: operand0 is a [P, 1] column, never an .indirect() view
tensor_scalar dst=bt[0:32, 0:1], data=ct[0:32, 0:1], op0=add, operand0=at.ap(pattern=[[64, 32], [1, 1]], offset=0, indirect=big[0:32, 0:1])
; activation (Scalar engine): the index on a multiple of 32; no scatter into PSUM; not on GpSimd
activation dst=bt.ap(pattern=[[32, 32], [1, 32]], offset=0, indirect=big[16:48, 0:1]), op=relu, data=ps[0:32, 0:32]
activation dst=ps.ap(pattern=[[64, 32], [1, 32]], offset=0, indirect=big[0:32, 0:1]), op=relu, data=ct[0:32, :]
activation dst=bt[0:32, :], op=relu, data=at.ap(pattern=[[64, 32], [1, 32]], offset=0, indirect=big[0:32, 0:1]), engine=gpsimd
; activation: bias and reduce_res take no .indirect() view
activation dst=bt[0:32, 0:1], op=relu, data=ct[0:32, 0:1], bias=at.ap(pattern=[[64, 32], [1, 1]], offset=0, indirect=big[0:32, 0:1])
; activate2: an indirect data starts on its index's partition
activate2 dst=bt[32:64, :], op=relu, data=at.ap(pattern=[[64, 32], [1, 32]], offset=2048, indirect=big[0:32, 0:1]), imm0=1.0, imm1=0.0, op0=multiply, op1=add
; exponential: a scattered dst's index starts on src's partition (src in SBUF); max_value takes no view
exponential dst=bt.ap(pattern=[[32, 32], [1, 32]], offset=0, indirect=big[0:32, 0:1]), src=at[32:64, 0:32]
exponential dst=bt[0:32, 0:1], src=ct[0:32, 0:1], max_value=at.ap(pattern=[[64, 32], [1, 1]], offset=0, indirect=big[0:32, 0:1])
; tensor_scalar_reduce: both indirect, data in PSUM: one index start; reduce_res takes no view
tensor_scalar_reduce dst=bt.ap(pattern=[[32, 32], [1, 32]], offset=0, indirect=big[0:32, 0:1]), data=ps.ap(pattern=[[64, 32], [1, 32]], offset=2048, indirect=big[32:64, 0:1]), op0=add, operand0=1.0, reduce_op=add, reduce_cmd=reset_reduce
tensor_scalar_reduce dst=bt[0:32, :], data=ct[0:32, :], op0=add, operand0=1.0, reduce_op=add, reduce_res=at.ap(pattern=[[64, 32], [1, 1]], offset=0, indirect=big[0:32, 0:1]), reduce_cmd=reset_reduce
