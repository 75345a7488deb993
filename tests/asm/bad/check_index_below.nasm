; CheckKind index_below: |range_start + i| < 2^24 over the free indices (S4.4),
; and range_start's own int range.
.sbuf x f32 [128, 512]
.sbuf y f32 [128, 512]
.sbuf b f32 [128, 1]
range_select dst=y, on_true_tile=x, comp_op0=ge, comp_op1=lt, bound0=b, bound1=b, range_start=16777000
range_select dst=y, on_true_tile=x, comp_op0=ge, comp_op1=lt, bound0=b, bound1=b, range_start=-16777216
range_select dst=y, on_true_tile=x, comp_op0=ge, comp_op1=lt, bound0=b, bound1=b, range_start=16777216 - 512
range_select dst=y, on_true_tile=x, comp_op0=ge, comp_op1=lt, bound0=b, bound1=b, range_start=20000000
