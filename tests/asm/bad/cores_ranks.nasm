; SEMANTICS S16.2: sendrecv's ranks name the other core of the program; with
; two cores it sends to and receives from that core. core_barrier names each
; core once. sendrecv needs a second core.
.arch trn2
.cores 2
.hbm h f32 [128, 8] output
.core 0
.sbuf a f32 [128, 8]
.sbuf b f32 [128, 8]
memset dst=a, value=1.0
sendrecv src=a, dst=b, send_to_rank=0, recv_from_rank=1, pipe_id=0
sendrecv src=a, dst=b, send_to_rank=2, recv_from_rank=1, pipe_id=0
core_barrier data=h, cores=[0, 1, 0]
.core 1
.sbuf a f32 [128, 8]
