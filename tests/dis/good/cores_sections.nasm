; A program for two cores in the forms the disassembler must keep (LANGUAGE.md
; 2.7): shared HBM before the first section, each section's declarations
; interleaved with its instructions (so a core's declarations come after the
; other core's instructions), the same names in both sections, a private HBM
; scratch tensor, .rept inside a section, .equ between sections, sendrecv in
; both forms of its engine and core_barrier in NKI's spellings of cores.
.arch trn3
.cores 2
.equ  W, 16
.hbm  x   f32  [256, W] input = iota
.hbm  y   f32  [256, W] output
.hbm  hs  bf16 [128, W] output

.core 0
.sbuf t   f32 [128, W]
dma_copy dst=t, src=x[0:128, :]
.sbuf r   f32 [128, W]
sendrecv src=t, dst=r, send_to_rank=1, recv_from_rank=1, pipe_id=7
.rept i, 4
tensor_scalar dst=r[:, i * 4:(i + 1) * 4], data=r[:, i * 4:(i + 1) * 4], op0=add, operand0=i
.endr
.hbm  mine f32 [128, W] scratch
dma_copy dst=mine, src=r
dma_copy dst=y[0:128, :], src=mine
sendrecv src=t[0:64, 0:4], dst=t[64:128, 0:4], send_to_rank=1, recv_from_rank=1, pipe_id=0, dma_engine=gpsimd_dma
core_barrier data=y, cores=[0, 1]
.sbuf b  bf16 [128, W]
dma_copy dst=b, src=y[128:256, :]
dma_copy dst=hs, src=b
core_barrier data=y, cores=0, engine=vector

.equ  HALF, 64
.core 1
.sbuf t   f32 [128, W]
.sbuf r   f32 [128, W]
dma_copy dst=t, src=x[128:256, :]
sendrecv src=t, dst=r, send_to_rank=0, recv_from_rank=0, pipe_id=7, dma_engine=dma
sendrecv src=r[HALF:128, 4:8], dst=r[0:HALF, 4:8], send_to_rank=0, recv_from_rank=0, pipe_id=0
dma_copy dst=y[128:256, :], src=r
core_barrier data=y, cores=[1, 0], engine=gpsimd
.rept j, 2
core_barrier data=y, cores=[1]
.endr
