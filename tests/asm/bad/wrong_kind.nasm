; A value of the wrong kind at a key: tensor, scalar, bool, int.
.sbuf x f32 [128, 64]
.sbuf y f32 [128, 64]
.sbuf s f32 [128, 8]
.sbuf d i32 [128, 9]
tensor_tensor dst=1.5, data1=x, data2=x, op=add
memset dst=y, value=x
tensor_reduce dst=y[:, 0], data=x, op=add, negate=yes
nonzero_with_count dst=d, src=s, index_offset=x
nonzero_with_count dst=d, src=s, padding_val=true
