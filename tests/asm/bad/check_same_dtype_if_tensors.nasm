; CheckKind same_dtype_if_tensors: activate2's imm0/imm1 tiles share a dtype (S4.5).
.arch trn3
.sbuf x f32 [128, 8]
.sbuf i0 f32 [128, 1]
.sbuf i1 bf16 [128, 1]
activate2 dst=x, op=exp, data=x, imm0=i0, imm1=i1, op0=multiply, op1=add
activate2 dst=x, op=exp, data=x, imm0=i0, imm1=2.0, op0=multiply, op1=add
