; CheckKind same_partitions (S1.3): reduce_res covers the data's accumulator lanes;
; nonzero_with_count's dst covers src's partitions (S4.1).
.sbuf x f32 [128, 16]
.sbuf r f32 [128, 1]
.sbuf s f32 [64, 8]
.sbuf d i32 [128, 9]
activation dst=x[0:32], op=exp, data=x[0:32], reduce_op=add, reduce_res=r[32:64], reduce_cmd=reset_reduce
nonzero_with_count dst=d[64:128], src=s
