; CheckKind same_shape (S1.4): equal partitions and elements per partition.
.hbm  h f32 [128, 4, 16] input
.sbuf a f32 [128, 64]
.sbuf b f32 [128, 32]
.sbuf c f32 [64, 64]
dma_copy dst=a, src=h
dma_copy dst=b, src=h
tensor_tensor dst=a, data1=a, data2=c, op=add
tensor_tensor dst=a[:, 0:32], data1=b, data2=a[:, 32:64], op=max
