; CheckKind column_of: [P, 1] operands with the data's partition count.
.sbuf x f32 [128, 8]
.sbuf y f32 [128, 8]
.sbuf c64 f32 [64, 1]
.sbuf wide f32 [128, 2]
range_select dst=y, on_true_tile=x, comp_op0=ge, comp_op1=lt, bound0=wide, bound1=c64
tensor_reduce dst=y, data=x, op=add
tensor_scalar dst=y, data=x, op0=add, operand0=wide
