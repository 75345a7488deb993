; CheckKind same_dtype: dma_copy copies bits (S2.1); tensor_copy_predicated src/dst (S4.2).
.hbm  h bf16 [128, 8] input
.sbuf a f32 [128, 8]
.sbuf b f16 [128, 8]
.sbuf p u8 [128, 8]
dma_copy dst=a, src=h
tensor_copy_predicated dst=a, src=b, predicate=p
tensor_copy_predicated dst=a, src=2.5, predicate=p
