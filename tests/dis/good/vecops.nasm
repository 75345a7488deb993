; Issue 13, vecops batch: NKI 0.6 instructions of the Vector, Scalar and GpSimd
; engines (docs/SEMANTICS.md S4.20..), each form once or more.
.arch trn2
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
