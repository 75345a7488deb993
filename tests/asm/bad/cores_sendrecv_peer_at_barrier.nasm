; SEMANTICS S16.2, S16.3: core 0 waits at a sendrecv while core 1 waits at a
; core_barrier: neither can go on.
.arch trn2
.cores 2
.hbm h f32 [128, 8] output
.core 0
.sbuf a f32 [128, 8]
.sbuf b f32 [128, 8]
memset dst=a, value=1.0
sendrecv src=a, dst=b, send_to_rank=1, recv_from_rank=1, pipe_id=0
core_barrier data=h, cores=[0, 1]
.core 1
.sbuf a f32 [128, 8]
.sbuf b f32 [128, 8]
memset dst=a, value=2.0
core_barrier data=h, cores=[0, 1]
sendrecv src=a, dst=b, send_to_rank=0, recv_from_rank=0, pipe_id=0
