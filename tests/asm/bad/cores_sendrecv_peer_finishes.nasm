; SEMANTICS S16.2: a sendrecv whose peer never comes: core 1 runs to its end
; without the sendrecv that would meet core 0's (an error at assembly, never a
; hang of the run).
.arch trn2
.cores 2
.core 0
.sbuf a f32 [128, 8]
.sbuf b f32 [128, 8]
memset dst=a, value=1.0
sendrecv src=a, dst=b, send_to_rank=1, recv_from_rank=1, pipe_id=0
.core 1
.sbuf a f32 [128, 8]
memset dst=a, value=2.0
tensor_scalar dst=a, data=a, op0=add, operand0=1.0
