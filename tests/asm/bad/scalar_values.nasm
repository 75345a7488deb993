; Scalars: exact int32 for integer tiles (integer_if_dtype_of), only_scalar
; (range_select on_false_value must be fp32.min, S4.4), int parameters.
.sbuf i i32 [128, 8]
.sbuf f f32 [128, 8]
.sbuf b f32 [128, 1]
memset dst=i, value=2.5
memset dst=i, value=3000000000
iota dst=i, base=0.5
range_select dst=f, on_true_tile=f, comp_op0=ge, comp_op1=lt, bound0=b, bound1=b, on_false_value=-3.4e38
range_select dst=f, on_true_tile=f, comp_op0=ge, comp_op1=lt, bound0=b, bound1=b, on_false_value=fp32.min, range_start=1.5
