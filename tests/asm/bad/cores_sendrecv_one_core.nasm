; SEMANTICS S16.2: a sendrecv in a program for one core has no one to meet.
.arch trn2
.sbuf a f32 [128, 8]
.sbuf b f32 [128, 8]
memset dst=a, value=1.0
sendrecv src=a, dst=b, send_to_rank=1, recv_from_rank=1, pipe_id=0
