; topk (S4.36): partitions in groups of 16, K <= n, n <= 16 x the columns of src
.arch trn2
.sbuf src bf16 [24, 3]
.sbuf v24 bf16 [24, 8]
.sbuf i24 u32 [24, 8]
.sbuf s32 bf16 [32, 3]
.sbuf v32 bf16 [32, 9]
.sbuf i32 u32 [32, 9]
topk val_dst=v24, idx_dst=i24, src=src, n=42
topk val_dst=v32, idx_dst=i32, src=s32, n=8
topk val_dst=v32, idx_dst=i32, src=s32, n=49
