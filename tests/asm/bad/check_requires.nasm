; CheckKind requires_operand: op1 needs operand1; reverse0/reverse1 need a real
; op (S4.5); accumulating reduce_cmd needs reduce_op (S3, S4.6).
.arch trn3
.sbuf x f32 [128, 8]
.sbuf r f32 [128, 1]
tensor_scalar dst=x, data=x, op0=add, operand0=1.0, op1=multiply
tensor_scalar dst=x, data=x, op0=add, operand0=1.0, reverse1=true
activate2 dst=x, op=exp, data=x, imm0=1.0, imm1=2.0, op0=bypass, op1=bypass, reverse0=true
activation dst=x, op=exp, data=x, reduce_cmd=reduce, reduce_res=r
activate2 dst=x, op=exp, data=x, imm0=1.0, imm1=2.0, op0=multiply, op1=add, reduce_cmd=reset
