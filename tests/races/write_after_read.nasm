; SEMANTICS S16.5: core 0 reads the shared inout 'a' (iota: element [r, c]
; is 8r + c), core 1 overwrites its last row, no meeting between: --strict
; faults at core 1's write. Without --strict, core 0 runs first: 'got' is
; the iota, and 'a' keeps rows 0..126 and has 5.0 in row 127.
.arch trn2
.cores 2
.hbm a f32 [128, 8] inout = iota
.hbm got f32 [128, 8] output
.core 0
.sbuf t f32 [128, 8]
dma_copy dst=t, src=a
dma_copy dst=got, src=t
.core 1
.sbuf t f32 [1, 8]
memset dst=t, value=5.0
dma_copy dst=a[127:128, :], src=t
