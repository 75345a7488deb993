; Statistics and selection (SEMANTICS.md S4.30-S4.35): bn_stats, bn_aggr,
; max8, nc_find_index8, nc_match_replace8, sequence_bounds.
.arch trn2
.nki 0.6                 ; topk below is written for NKI 0.6 (its ascending form)
.sbuf x   f32 [128, 4, 128]
.sbuf st  f32 [128, 12]
.sbuf mv  bf16 [128, 2]
.sbuf m8  f32 [128, 8]
.sbuf i8  u32 [128, 8]
.sbuf j8  u16 [128, 8]
.sbuf y   f32 [128, 4, 128]
.sbuf ids i32 [1, 64]
.sbuf bnd i32 [1, 2, 64]
.sbuf fid f32 [1, 9]
.sbuf fbd f32 [1, 2, 9]
bn_stats dst=st[:, 0:6], data=x[:, 0, :]
bn_stats dst=st[:, 6:12], data=x[:, 1:3, 0:100:3]
bn_aggr dst=mv, data=st
max8 dst=m8, src=x
nc_find_index8 dst=i8, data=x, vals=m8
nc_find_index8 dst=j8, data=x[:, 2, :], vals=m8
nc_match_replace8 dst=y, data=x, vals=m8, imm=-inf
nc_match_replace8 dst=x, data=x, vals=m8, imm=0.5, dst_idx=j8
sequence_bounds dst=bnd, segment_ids=ids
sequence_bounds dst=fbd, segment_ids=fid
; topk (S4.36): a 16-partition snake of 42 bf16 elements, K = 8 (NKI's example)
.sbuf snake bf16 [32, 3]
.sbuf kv    bf16 [32, 8]
.sbuf ki    u32 [32, 8]
topk val_dst=kv, idx_dst=ki, src=snake, n=42
