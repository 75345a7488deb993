; CheckKind not_both_in: src and predicate (S4.2), on_true and predicate (S4.3) not both in PSUM.
.sbuf d f32 [128, 8]
.psum s f32 [128, 8]
.psum p u8 [128, 8]
.psum q i8 [128, 8]
tensor_copy_predicated dst=d, src=s, predicate=p
select_reduce dst=d, predicate=q, on_true=s, on_false=0
