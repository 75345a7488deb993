; Enum values: unknown names (did-you-mean over names and aliases), values the
; instruction does not allow (enum_allowed_mask), wrong kind.
.sbuf x f32 [128, 64]
.sbuf y f32 [128, 64]
.sbuf m f32 [128, 1]
tensor_tensor dst=y, data1=x, data2=x, op=mutliply
tensor_tensor dst=y, data1=x, data2=x, op=bypass
tensor_reduce dst=m, data=x, op=amx
range_select dst=y, on_true_tile=x, comp_op0=ne, comp_op1=lt, bound0=m, bound1=m
select_reduce dst=y, predicate=x, on_true=x, on_false=0, reduce_op=add
tensor_tensor dst=y, data1=x, data2=x, op=3
