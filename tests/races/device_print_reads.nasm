; No race (SEMANTICS S16.5): both cores print and copy the shared input 'a'
; with no meeting; reads never race with reads (device_print writes
; nothing). 'c0' and 'c1' are copies of 'a' (iota: element [r, c] is 4r + c).
.arch trn2
.cores 2
.hbm a f32 [2, 4] input = iota
.hbm c0 f32 [2, 4] output
.hbm c1 f32 [2, 4] output
.core 0
device_print print_prefix="core 0", tensor=a
dma_copy dst=c0, src=a
.core 1
device_print print_prefix="core 1", tensor=a
dma_copy dst=c1, src=a
