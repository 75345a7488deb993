; SEMANTICS S16.2: the two sides of a sendrecv disagree on the dtype. Each side
; is consistent (src and dst of one core share a dtype, so same_dtype passes);
; core 0 sends f32 and core 1 receives bf16.
.arch trn2
.cores 2
.core 0
.sbuf a f32 [128, 8]
.sbuf b f32 [128, 8]
memset dst=a, value=1.0
sendrecv src=a, dst=b, send_to_rank=1, recv_from_rank=1, pipe_id=0
.core 1
.sbuf a bf16 [128, 8]
.sbuf b bf16 [128, 8]
memset dst=a, value=2.0
sendrecv src=a, dst=b, send_to_rank=0, recv_from_rank=0, pipe_id=0
