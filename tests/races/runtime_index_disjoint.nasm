; No race with runtime indices (SEMANTICS S16.5): the rows core 0's indices
; choose are not the rows of their static views (index 0), and core 1
; writes every row core 0 does not, those static rows included, with no
; meeting. ixs = iota 2..5. 'out': a scatter at row 64 + ixs[p] = 66..69.
; 'edge': a scatter at row 124 + ixs[p], of which only 126 and 127 exist:
; oob_mode=skip moves nothing for partitions 2 and 3. 'moved': two rows at
; row 100 + ixs[3] = 105, 106 (scalar_offset). 'acc': dma_compute adds 1.0
; to rows 66..69 (the scatter read-modify-write). Each holds 1.0 in core
; 0's rows and 2.0 in the others.
.arch trn2
.cores 2
.hbm out f32 [128, 8] output
.hbm edge f32 [128, 8] output
.hbm moved f32 [128, 8] output
.hbm acc f32 [128, 8] output
.core 0
.sbuf ixs i32 [4, 1]
.sbuf t f32 [4, 8]
iota dst=ixs, base=2, partition_step=1
memset dst=t, value=1.0
dma_copy dst=out.ap(pattern=[[8, 4], [1, 8]], offset=512, vector_offset=ixs, indirect_dim=0), src=t
dma_copy dst=edge.ap(pattern=[[8, 4], [1, 8]], offset=992, vector_offset=ixs, indirect_dim=0), src=t, oob_mode=skip
dma_copy dst=moved.ap(pattern=[[8, 2], [1, 8]], offset=800, scalar_offset=ixs[3:4, :], indirect_dim=0), src=t[0:2, :]
dma_compute dst=acc.ap(pattern=[[8, 4], [1, 8]], offset=512, vector_offset=ixs, indirect_dim=0), srcs=[acc.ap(pattern=[[8, 4], [1, 8]], offset=512, vector_offset=ixs, indirect_dim=0), t], reduce_op=add
.core 1
.sbuf t f32 [128, 8]
memset dst=t, value=2.0
dma_copy dst=out[0:66, :], src=t[0:66, :]
dma_copy dst=out[70:128, :], src=t[70:128, :]
dma_copy dst=edge[0:126, :], src=t[0:126, :]
dma_copy dst=moved[0:105, :], src=t[0:105, :]
dma_copy dst=moved[107:128, :], src=t[107:128, :]
dma_copy dst=acc[0:66, :], src=t[0:66, :]
dma_copy dst=acc[70:128, :], src=t[70:128, :]
