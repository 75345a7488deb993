; Enum values: an unknown name (did-you-mean over names and aliases, then the
; values the operand accepts: the one golden listing of an enum, compare being
; stable), values the instruction does not allow (enum_allowed_mask), wrong kind.
; Typos of other enums are unit tests (tests/asm/values_test.cpp), so that
; golden files do not pin the operator list.
.sbuf x f32 [128, 64]
.sbuf y f32 [128, 64]
.sbuf m f32 [128, 1]
range_select dst=y, on_true_tile=x, comp_op0=greater_equal, comp_op1=les, bound0=m, bound1=m
tensor_tensor dst=y, data1=x, data2=x, op=bypass
range_select dst=y, on_true_tile=x, comp_op0=ne, comp_op1=lt, bound0=m, bound1=m
select_reduce dst=y, predicate=x, on_true=x, on_false=0, reduce_op=add
tensor_tensor dst=y, data1=x, data2=x, op=3
