; .indirect() views on tensor_tensor and tensor_scalar exist from NeuronCore-v4 (trn3) on.
.arch trn2
.sbuf at  f32 [32, 64]
.sbuf bt  f32 [32, 32]
.sbuf idx i32 [32, 1]
tensor_tensor dst=bt, data1=at.ap(pattern=[[64, 32], [1, 32]], offset=0, indirect=idx), data2=bt, op=add
tensor_scalar dst=at.ap(pattern=[[64, 32], [1, 32]], offset=0, indirect=idx), data=bt, op0=add, operand0=1.0
