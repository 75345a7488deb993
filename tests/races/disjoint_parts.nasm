; No race (SEMANTICS S16.5): the cores write disjoint parts of shared
; tensors with no meeting, so no bytes are touched by both. 'rows': core 0
; rows 0..63 (1.0), core 1 rows 64..127 (2.0). 'cols': core 0 columns 0..3
; (1.0), core 1 columns 4..7 (2.0), the two interleaved in memory. Each core
; then reads back only its own part into its private HBM scratch.
.arch trn2
.cores 2
.hbm rows f32 [128, 8] output
.hbm cols f32 [128, 8] output
.core 0
.sbuf t f32 [128, 8]
.hbm mine f32 [128, 8] scratch
memset dst=t, value=1.0
dma_copy dst=rows[0:64, :], src=t[0:64, :]
dma_copy dst=cols[:, 0:4], src=t[:, 0:4]
dma_copy dst=mine[0:64, :], src=rows[0:64, :]
.core 1
.sbuf t f32 [128, 8]
.hbm mine f32 [128, 8] scratch
memset dst=t, value=2.0
dma_copy dst=rows[64:128, :], src=t[64:128, :]
dma_copy dst=cols[:, 4:8], src=t[:, 4:8]
dma_copy dst=mine[:, 4:8], src=cols[:, 4:8]
