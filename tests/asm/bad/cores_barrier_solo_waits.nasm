; SEMANTICS S16.3: a barrier naming only its own core waits for no one, so
; core 1's cores=[1] is not the meeting core 0's cores=[0, 1] waits for; core 1
; finishes without it.
.arch trn2
.cores 2
.hbm h f32 [128, 8] output
.core 0
core_barrier data=h, cores=[0, 1]
.core 1
core_barrier data=h, cores=[1]
