; Tensor Indirection (.ap(..., indirect=IDX), NKI 0.6 .indirect() on
; NeuronCore-v4): the base-partition rules of tensor_copy's docstring, the
; engine, and what the view and its index must be.
.arch trn3
.hbm  hb  f32 [32, 64] input
.sbuf at  f32 [128, 64]
.sbuf bt  f32 [128, 32]
.sbuf big i32 [128, 2]
.sbuf fix f32 [32, 1]
.psum ps  f32 [128, 64]
; the index starts on partition 16, not a quadrant boundary (src in PSUM, not indirect: no other rule applies)
tensor_copy dst=bt.ap(pattern=[[32, 32], [1, 32]], offset=0, indirect=big[16:48, 0:1]), src=ps[0:32, 0:32]
; an indirect src starts on partition 32, its index on 0
tensor_copy dst=bt[32:64, :], src=at.ap(pattern=[[64, 32], [1, 32]], offset=2048, indirect=big[0:32, 0:1])
; a scattered dst's index starts on 0, the SBUF src on 32
tensor_copy dst=bt.ap(pattern=[[32, 32], [1, 32]], offset=0, indirect=big[0:32, 0:1]), src=at[32:64, 0:32]
; both indirect, src in PSUM: the two indices start on 0 and 32
tensor_copy dst=bt.ap(pattern=[[32, 32], [1, 32]], offset=0, indirect=big[0:32, 0:1]), src=ps.ap(pattern=[[64, 32], [1, 32]], offset=2048, indirect=big[32:64, 0:1])
; the Scalar engine does not scatter into PSUM
tensor_copy dst=ps.ap(pattern=[[64, 32], [1, 32]], offset=0, indirect=big[0:32, 0:1]), src=at[0:32, 0:32], engine=scalar
; GpSimd does not take .indirect() views
tensor_copy dst=bt[0:32, :], src=at.ap(pattern=[[64, 32], [1, 32]], offset=0, indirect=big[0:32, 0:1]), engine=gpsimd
; an operand without tensor indirection
tensor_tensor dst=bt[0:32, :], data1=bt[0:32, :], data2=at.ap(pattern=[[64, 32], [1, 32]], offset=0, indirect=big[0:32, 0:1]), op=add
; an HBM view, a 3-dimensional pattern, a float index, an index of other partitions
tensor_copy dst=bt[0:32, :], src=hb.ap(pattern=[[64, 32], [1, 32]], offset=0, indirect=big[0:32, 0:1])
tensor_copy dst=bt[0:32, :], src=at.ap(pattern=[[64, 32], [2, 16], [1, 2]], offset=0, indirect=big[0:32, 0:1])
tensor_copy dst=bt[0:32, :], src=at.ap(pattern=[[64, 32], [1, 32]], offset=0, indirect=fix)
tensor_copy dst=bt[0:32, :], src=at.ap(pattern=[[64, 32], [1, 32]], offset=0, indirect=big[0:64, 0:1])
; 64 columns read an index of 32 partitions x 1 in groups of 16: column 32 needs partition 32
tensor_copy dst=at[0:32, :], src=at.ap(pattern=[[64, 32], [1, 64]], offset=0, indirect=big[0:32, 0:1])
; malformed: with vector_offset, with indirect_dim
tensor_copy dst=bt[0:32, :], src=at.ap(pattern=[[64, 32], [1, 32]], offset=0, indirect=big[0:32, 0:1], vector_offset=big[0:32, 0:1])
tensor_copy dst=bt[0:32, :], src=at.ap(pattern=[[64, 32], [1, 32]], offset=0, indirect=big[0:32, 0:1], indirect_dim=1)
