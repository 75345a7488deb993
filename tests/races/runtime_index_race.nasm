; SEMANTICS S16.5 with a runtime index: core 0 scatters 4 rows into 'out' at
; row 64 + ix[p] (ix = iota: rows 64..67; the static view, index 0, is row
; 64 for every partition), core 1 writes row 66 with no meeting between: the
; race is on the row the index chose. Without --strict: rows 64, 65, 67 hold
; 1.0, row 66 holds 2.0 (core 1 writes last), the rest 0.
.arch trn2
.cores 2
.hbm ix i32 [4, 1] input = iota
.hbm out f32 [128, 8] output
.core 0
.sbuf ixs i32 [4, 1]
.sbuf t f32 [4, 8]
dma_copy dst=ixs, src=ix
memset dst=t, value=1.0
dma_copy dst=out.ap(pattern=[[8, 4], [1, 8]], offset=512, vector_offset=ixs, indirect_dim=0), src=t
.core 1
.sbuf t f32 [1, 8]
memset dst=t, value=2.0
dma_copy dst=out[66:67, :], src=t
