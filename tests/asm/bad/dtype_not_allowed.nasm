; Dtypes per operand: predicates (S4.2, S4.3), nonzero_with_count (S4.1),
; range_select bounds (S4.4).
.sbuf x f32 [128, 8]
.sbuf y f32 [128, 8]
.sbuf pf f32 [128, 8]
.sbuf p32 u32 [128, 8]
.sbuf bi i32 [128, 1]
.sbuf d f32 [128, 9]
tensor_copy_predicated dst=y, src=x, predicate=pf
select_reduce dst=y, predicate=p32, on_true=x, on_false=0
nonzero_with_count dst=d, src=x
range_select dst=y, on_true_tile=x, comp_op0=ge, comp_op1=lt, bound0=bi, bound1=bi
