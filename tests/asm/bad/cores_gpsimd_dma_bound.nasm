; NKI 0.6 sendrecv: dma_engine=gpsimd_dma moves at most 1024 bytes per
; partition of a 4-byte dtype (256 elements); 512 f32 elements are refused.
.arch trn2
.cores 2
.hbm a f32 [128, 512] input
.sbuf t f32 [128, 512]
.sbuf r f32 [128, 512]
dma_copy dst=t, src=a
sendrecv src=t, dst=r, send_to_rank=1 - core, recv_from_rank=1 - core, pipe_id=0, dma_engine=gpsimd_dma
