; flash_attention_fwd: one query tile of causal flash attention, forward:
; O = softmax(scale * Q K^T, causal) V for 128 queries at positions 256..383
; over 384 keys in three blocks of 128, head dimension 64, bf16 inputs.
;
; Pattern: the NKI attention kernels (nki-samples
; src/nki_samples/tutorials/attention_fwd_performance/attention_kernels.py,
; attn_fwd_v2..v5, and the flash_fwd inner loop of nki-samples'
; test/integration/flash_attention): per key block,
;   scores   S = nc_matmul(stationary=Q^T tile [d, 128q], moving=K^T block [d, 128k],
;              accumulate=false: each block starts a new sum in the reused PSUM tile)
;              -> PSUM [128q, 128k] float32 (NKI 0.6 nc_matmul: dst = stationary.T @ moving)
;   mask     range_select keeps key j where 0 <= j < q + 1 (bound1 = the query's
;              position + 1 from iota), fp32.min elsewhere, and takes the
;              row max of the block in the same instruction (S4.4, S3)
;   online softmax: m_new = max(m, m_blk); corr = exp(scale (m - m_new));
;              P = exp(scale S - scale m_new) in bf16 with its row sum in the
;              Scalar accumulator (activation, S4.6); l = l corr + rowsum(P)
;   PV       P^T via the Tensor Engine (nc_transpose to PSUM, tensor_copy to
;              SBUF), then nc_matmul(stationary=P^T [128k, 128q], moving=V block
;              [128k, d]) -> PSUM [128q, d]; acc = acc corr + PV (read from PSUM)
; and finally O = acc / l (activation reciprocal, tensor_scalar multiply).
;
; diff: --rtol 2e-6 --atol 1e-7
; (the reference model computes the same float32 steps; exp and the reciprocal
; may differ from it by an ulp, S5)
;
; Run: nisa run prog.nasm --input q=q.npy --input k=k.npy --input v=v.npy --dump out/
;      nisa diff expected out/ --rtol 2e-6 --atol 1e-7
.arch trn2
.equ  D, 64                  ; head dimension
.equ  QS, 256                ; position of this tile's first query
.equ  BK, 128                ; keys per block
.equ  NB, 3                  ; key blocks: keys 0 .. NB*BK-1 (the last one holds the diagonal)
.equ  SCALE, 0.125           ; 1 / sqrt(D)

.hbm  q  bf16 [D, 128] input         ; Q^T: the head dimension on partitions, as flash_fwd loads it
.hbm  k  bf16 [D, NB * BK] input     ; K^T
.hbm  v  bf16 [NB * BK, D] input
.hbm  o  f32  [128, D] output

.sbuf q_sb   bf16 [D, 128]
.sbuf k_sb   bf16 [D, NB * BK]
.sbuf v_sb   bf16 [BK, D]
.psum s_ps   f32  [128, BK]
.sbuf s_sb   f32  [128, BK]
.sbuf p_sb   bf16 [128, BK]
.psum pt_ps  bf16 [BK, 128]
.sbuf pt_sb  bf16 [BK, 128]
.psum pv_ps  f32  [128, D]
.sbuf acc    f32  [128, D]
.sbuf m      f32  [128, 1]       ; running row max (unscaled scores)
.sbuf m_blk  f32  [128, 1]
.sbuf m_new  f32  [128, 1]
.sbuf diff   f32  [128, 1]
.sbuf corr   f32  [128, 1]
.sbuf neg_m  f32  [128, 1]
.sbuf l      f32  [128, 1]       ; running row sum
.sbuf l_blk  f32  [128, 1]
.sbuf zero   f32  [128, 1]
.sbuf qpos1  f32  [128, 1]       ; query position + 1: keys below it are visible

dma_copy dst=q_sb, src=q
dma_copy dst=k_sb, src=k
iota dst=qpos1, pattern=[[0, 1]], offset=QS + 1, channel_multiplier=1
memset dst=zero, value=0
memset dst=m, value=fp32.min
memset dst=l, value=0
memset dst=acc, value=0

.rept j, NB
nc_matmul dst=s_ps, stationary=q_sb, moving=k_sb[:, j * BK:(j + 1) * BK], accumulate=false
range_select dst=s_sb, on_true_tile=s_ps, comp_op0=greater_equal, comp_op1=less, bound0=zero, bound1=qpos1, reduce_cmd=reset_reduce, reduce_res=m_blk, reduce_op=maximum, range_start=j * BK, on_false_value=fp32.min
tensor_tensor dst=m_new, data1=m, data2=m_blk, op=maximum
tensor_tensor dst=diff, data1=m, data2=m_new, op=subtract
activation dst=corr, op=exp, data=diff, scale=SCALE
tensor_scalar dst=neg_m, data=m_new, op0=multiply, operand0=-SCALE
activation dst=p_sb, op=exp, data=s_sb, bias=neg_m, scale=SCALE, reduce_op=add, reduce_res=l_blk, reduce_cmd=reset_reduce
tensor_scalar dst=l, data=l, op0=multiply, operand0=corr, op1=add, operand1=l_blk
nc_transpose dst=pt_ps, data=p_sb
tensor_copy dst=pt_sb, src=pt_ps
dma_copy dst=v_sb, src=v[j * BK:(j + 1) * BK, :]
nc_matmul dst=pv_ps, stationary=pt_sb, moving=v_sb, accumulate=false
tensor_scalar dst=acc, data=acc, op0=multiply, operand0=corr
tensor_tensor dst=acc, data1=acc, data2=pv_ps, op=add
tensor_copy dst=m, src=m_new
.endr

activation dst=l, op=reciprocal, data=l
tensor_scalar dst=acc, data=acc, op0=multiply, operand0=l
dma_copy dst=o, src=acc
