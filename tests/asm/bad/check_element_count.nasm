; element_count and elements_times (S4.30-S4.35): sizes of the statistics and selection operands
.arch trn2
.sbuf x   f32 [128, 600]
.sbuf st  f32 [128, 7]
.sbuf m8  f32 [128, 8]
.sbuf ids f32 [2, 16]
.sbuf bnd f32 [2, 2, 16]
.sbuf one f32 [1, 16]
.sbuf odd f32 [1, 30]
bn_stats dst=st, data=x
bn_aggr dst=m8[:, 0:2], data=st
max8 dst=m8[:, 0:7], src=x[:, 0:7]
sequence_bounds dst=bnd, segment_ids=ids
sequence_bounds dst=odd, segment_ids=one
