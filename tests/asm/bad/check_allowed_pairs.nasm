; CheckKind allowed_pairs: activate2's (op0, op1) combinations (S4.5).
.arch trn3
.sbuf x f32 [128, 8]
activate2 dst=x, op=exp, data=x, imm0=1.0, imm1=2.0, op0=add, op1=multiply
activate2 dst=x, op=exp, data=x, imm0=1.0, imm1=2.0, op0=bypass, op1=add
