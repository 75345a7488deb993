; SEMANTICS S16.6: sendrecv_compute's src and dst are both in SBUF or both in
; the core's private HBM (NKI: shared HBM is not supported).
.arch trn2
.cores 2
.hbm  shared f32 [128, 8] output
.core 0
.sbuf a f32 [128, 8]
.hbm  p f32 [128, 8] scratch
memset dst=a, value=1.0
sendrecv_compute src=a, dst=p, send_to_rank=1, recv_from_rank=1, reduce_op=add
sendrecv_compute src=shared, dst=p, send_to_rank=1, recv_from_rank=1, reduce_op=add
.core 1
