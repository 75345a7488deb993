; SEMANTICS S16.2: the two sides of a sendrecv give different pipe_ids.
.arch trn2
.cores 2
.core 0
.sbuf a f32 [128, 8]
.sbuf b f32 [128, 8]
memset dst=a, value=1.0
sendrecv src=a, dst=b, send_to_rank=1, recv_from_rank=1, pipe_id=0
.core 1
.sbuf a f32 [128, 8]
.sbuf b f32 [128, 8]
memset dst=a, value=2.0
sendrecv src=a, dst=b, send_to_rank=0, recv_from_rank=0, pipe_id=3
