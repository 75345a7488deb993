; SEMANTICS S17.2, S16.1: the cores' meetings are matched before the run, so
; no sendrecv, sendrecv_compute or core_barrier may be inside a runtime loop.
.arch trn2
.cores 2
.hbm  h f32 [128, 8] output
.rept K, 2
.core K
.sbuf a f32 [128, 8]
.sbuf b f32 [128, 8]
.reg  i
memset dst=a, value=1.0
fori_loop var=i, upper=2
sendrecv src=a, dst=b, send_to_rank=1 - K, recv_from_rank=1 - K, pipe_id=0
core_barrier data=h, cores=[0, 1]
end_loop
.endr
