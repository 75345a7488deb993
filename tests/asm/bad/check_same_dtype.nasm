; CheckKind same_dtype: tensor_copy_predicated src/dst (S4.2).
.sbuf a f32 [128, 8]
.sbuf b f16 [128, 8]
.sbuf p u8 [128, 8]
tensor_copy_predicated dst=a, src=b, predicate=p
tensor_copy_predicated dst=a, src=2.5, predicate=p
