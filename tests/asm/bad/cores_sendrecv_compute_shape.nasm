; SEMANTICS S16.6: the two sides' src tiles have one shape and dtype: core 0
; reduces f32 [128, 8], core 1 i32 [128, 8] (each side's dst may differ).
.arch trn2
.cores 2
.core 0
.sbuf a f32 [128, 8]
.sbuf b bf16 [128, 8]
memset dst=a, value=1.0
sendrecv_compute src=a, dst=b, send_to_rank=1, recv_from_rank=1, reduce_op=add
.core 1
.sbuf a i32 [128, 8]
.sbuf b i32 [128, 8]
memset dst=a, value=2
sendrecv_compute src=a, dst=b, send_to_rank=0, recv_from_rank=0, reduce_op=add
