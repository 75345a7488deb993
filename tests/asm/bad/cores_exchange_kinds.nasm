; SEMANTICS S16.1, S16.6: the two sides of an exchange are the same
; instruction: core 0's sendrecv cannot meet core 1's sendrecv_compute.
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
sendrecv_compute src=a, dst=b, send_to_rank=0, recv_from_rank=0, reduce_op=maximum
