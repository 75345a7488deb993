; mamba_scan: Mamba-v1's selective state-space scan, fused, over a [2, 256, 256]
; float32 batch of sequences with 8 states per channel.
;
; Pattern: nki-samples src/nki_samples/tutorials/fused_mamba/mamba_nki_kernels.py,
; mamba_v2 (delta and u loaded once per channel tile, reused across states),
; ported line for line: the three nl.affine_range loops become .rept blocks,
; each nl.load/nl.store a dma_copy, B_i.broadcast_to / C_i.broadcast_to a
; DMA access pattern with a zero partition step, and every scan is ONE
; tensor_tensor_scan (S4.20) along the sequence. For batch b, channel c and
; state n (mamba_torch.py, mamba_layer):
;   deltaA[t]   = exp(delta[b, c, t] * A[c, n])
;   deltaB_u[t] = delta[b, c, t] * B[b, n, t] * u[b, c, t]
;   h[t]        = deltaA[t] * h[t - 1] + deltaB_u[t],  h[-1] = 0
;   out[b, c, t] = sum over n of C[b, n, t] * h[t]   (states added in order)
; in float32 (S2.1; exp per S5).
;
; diff: --rtol 1e-5 --atol 1e-6
;
; Run: nisa run --strict prog.nasm --input delta=delta.npy --input u=u.npy --input A=A.npy \
;        --input B=B.npy --input C=C.npy --dump out/
;      nisa diff expected out/
.arch trn2
.equ  BATCH, 2                      ; batch_size, channels, seq_len = delta.shape
.equ  CHANNELS, 256
.equ  SEQ, 256
.equ  STATES, 8                     ; _, state_size = A.shape
.equ  P, 128                        ; channel_psize = nl.tile_size.pmax

.hbm  delta  f32 [BATCH, CHANNELS, SEQ] input
.hbm  u      f32 [BATCH, CHANNELS, SEQ] input
.hbm  A      f32 [CHANNELS, STATES] input
.hbm  B      f32 [BATCH, STATES, SEQ] input
.hbm  C      f32 [BATCH, STATES, SEQ] input
.hbm  output f32 [BATCH, CHANNELS, SEQ] output  ; nl.ndarray(..., buffer=nl.shared_hbm)

.sbuf scanC_accum f32 [P, SEQ]
.sbuf delta_i     f32 [P, SEQ]
.sbuf u_i         f32 [P, SEQ]
.sbuf A_i         f32 [P, 1]
.sbuf deltaA      f32 [P, SEQ]
.sbuf B_i_bcast   f32 [P, SEQ]
.sbuf deltaU      f32 [P, SEQ]
.sbuf deltaBu     f32 [P, SEQ]
.sbuf scan_res    f32 [P, SEQ]
.sbuf C_i_bcast   f32 [P, SEQ]
.sbuf scanC       f32 [P, SEQ]

.rept b, BATCH                      ; for i_batch in nl.affine_range(batch_size):
.rept ct, CHANNELS / P              ;   for i_channel_tile in nl.affine_range(n_channel_tile):
memset dst=scanC_accum, value=0     ; scanC_accum = nl.zeros((nl.par_dim(channel_psize), seq_len))
dma_copy dst=delta_i, src=delta.ap(pattern=[[SEQ, P], [1, SEQ]], offset=(b * CHANNELS + ct * P) * SEQ)
dma_copy dst=u_i, src=u.ap(pattern=[[SEQ, P], [1, SEQ]], offset=(b * CHANNELS + ct * P) * SEQ)
.rept n, STATES                     ;     for i_state in nl.affine_range(state_size):
dma_copy dst=A_i, src=A[ct * P:(ct + 1) * P, n:n + 1]
activation dst=deltaA, op=exp, data=delta_i, scale=A_i
dma_copy dst=B_i_bcast, src=B.ap(pattern=[[0, P], [1, SEQ]], offset=(b * STATES + n) * SEQ)
tensor_tensor dst=deltaU, data1=delta_i, data2=u_i, op=multiply
tensor_tensor dst=deltaBu, data1=deltaU, data2=B_i_bcast, op=multiply
tensor_tensor_scan dst=scan_res, data0=deltaA, data1=deltaBu, initial=0, op0=multiply, op1=add
dma_copy dst=C_i_bcast, src=C.ap(pattern=[[0, P], [1, SEQ]], offset=(b * STATES + n) * SEQ)
tensor_tensor dst=scanC, data1=scan_res, data2=C_i_bcast, op=multiply
tensor_tensor dst=scanC_accum, data1=scanC_accum, data2=scanC, op=add
.endr
dma_copy dst=output.ap(pattern=[[SEQ, P], [1, SEQ]], offset=(b * CHANNELS + ct * P) * SEQ), src=scanC_accum
.endr
.endr
