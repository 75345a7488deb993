; CheckKind partition_reduced: tensor_partition_reduce's dst is one partition
; holding data's elements per partition.
.sbuf x f32 [128, 8]
.sbuf y f32 [128, 8]
tensor_partition_reduce dst=y, op=add, data=x
tensor_partition_reduce dst=y[0:1, 0:4], op=max, data=x
tensor_partition_reduce dst=y[0:1, :], op=bitwise_or, data=x
