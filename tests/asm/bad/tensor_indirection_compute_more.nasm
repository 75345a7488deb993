; .indirect() views (indirect=IDX) on tensor_scalar_cumulative, tensor_reduce and
; tensor_copy_predicated (NeuronCore-v4): each docstring's "Tensor
; indirection" paragraph, rule by rule.
.arch trn3
.sbuf at  f32 [128, 64]
.sbuf bt  f32 [128, 32]
.sbuf qt  u8 [128, 64]
.sbuf big i32 [128, 2]
.psum ps  f32 [128, 64]
.psum pq  u8 [128, 64]
; tensor_scalar_cumulative: the index on a multiple of 32; an indirect src on its index's partition
tensor_scalar_cumulative dst=bt.ap(pattern=[[32, 32], [1, 32]], offset=0, indirect=big[16:48, 0:1]), src=ps[0:32, 0:32], op0=add, op1=add, imm0=1.0
tensor_scalar_cumulative dst=bt[32:64, :], src=at.ap(pattern=[[64, 32], [1, 32]], offset=2048, indirect=big[0:32, 0:1]), op0=add, op1=add, imm0=1.0
; tensor_scalar_cumulative: a scattered dst's index on src's partition (src in SBUF); imm0 takes no view
tensor_scalar_cumulative dst=bt.ap(pattern=[[32, 32], [1, 32]], offset=0, indirect=big[0:32, 0:1]), src=at[32:64, 0:32], op0=add, op1=add, imm0=1.0
tensor_scalar_cumulative dst=bt[0:32, 0:1], src=bt[0:32, 1:2], op0=add, op1=add, imm0=at.ap(pattern=[[64, 32], [1, 1]], offset=0, indirect=big[0:32, 0:1])
; tensor_copy_predicated: src takes no view
tensor_copy_predicated dst=bt[0:32, :], src=at.ap(pattern=[[64, 32], [1, 32]], offset=0, indirect=big[0:32, 0:1]), predicate=qt[0:32, 0:32]
; tensor_copy_predicated: an indirect predicate on its index's partition; a scattered dst's index on the (SBUF) predicate's partition
tensor_copy_predicated dst=bt[32:64, :], src=at[32:64, 0:32], predicate=qt.ap(pattern=[[64, 32], [1, 32]], offset=2048, indirect=big[0:32, 0:1])
tensor_copy_predicated dst=bt.ap(pattern=[[32, 32], [1, 32]], offset=0, indirect=big[0:32, 0:1]), src=at[32:64, 0:32], predicate=qt[32:64, 0:32]
; tensor_copy_predicated: both indirect, predicate in PSUM: the two indices start on one partition
tensor_copy_predicated dst=bt.ap(pattern=[[32, 32], [1, 32]], offset=0, indirect=big[0:32, 0:1]), src=at[32:64, 0:32], predicate=pq.ap(pattern=[[64, 32], [1, 32]], offset=2048, indirect=big[32:64, 0:1])
; tensor_reduce: the index on a multiple of 32; an indirect data on its index's partition
tensor_reduce dst=bt.ap(pattern=[[32, 32], [1, 1]], offset=0, indirect=big[16:48, 0:1]), op=add, data=ps[0:32, 0:32]
tensor_reduce dst=bt[32:64, 0:1], op=add, data=at.ap(pattern=[[64, 32], [1, 32]], offset=2048, indirect=big[0:32, 0:1])
; tensor_reduce: a scattered dst's index on data's partition (data in SBUF); both indirect, data in PSUM: one index start
tensor_reduce dst=bt.ap(pattern=[[32, 32], [1, 1]], offset=0, indirect=big[0:32, 0:1]), op=add, data=at[32:64, 0:32]
tensor_reduce dst=bt.ap(pattern=[[32, 32], [1, 1]], offset=0, indirect=big[0:32, 0:1]), op=add, data=ps.ap(pattern=[[64, 32], [1, 32]], offset=2048, indirect=big[32:64, 0:1])
