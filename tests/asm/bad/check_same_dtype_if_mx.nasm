; CheckKind same_dtype_if_mx: dma_copy converts other dtypes through float32 but copies MX bits (S4.7).
.arch trn3
.hbm  h f32 [128, 8] input
.sbuf q fp8e4m3fn_x4 [128, 8]
.sbuf s fp8e8m0 [128, 8]
.sbuf b bf16 [128, 8]
dma_copy dst=q, src=h
dma_copy dst=b, src=h
dma_copy dst=s, src=q
