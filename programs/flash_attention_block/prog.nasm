; flash_attention_block: the online (streaming) softmax of flash attention over
; two key blocks, with the running max / running sum rescaling between them.
;
; Pattern: the inner loop of NKI flash attention (nki-samples attention
; kernels, flash_fwd): for each key block, mask the scores and take the block's
; row max (range_select, reduce_cmd=reset_reduce with reduce_res, S4.4, S3);
; new max m = max(m_old, m_block) (tensor_tensor maximum); numerators
; exp(s - m) with their row sum in the Scalar accumulator (activation exp with
; bias = -m, reduce_op add, S4.6); the correction exp(m_old - m) rescales
; what earlier blocks produced: the running sum l = l_old * corr + l_block (one
; tensor_scalar, two stages), and the earlier numerators (which stand in here
; for flash attention's output accumulator o, as there is no matmul) by corr.
; Last, probs = numerators * (1 / l) (activation reciprocal, tensor_scalar).
; The scores are taken as already scaled by 1/sqrt(d).
;
; Query row p is at position q = Q_START + p; key k is visible when k <= q.
; Block 0 (keys 0..511) is fully visible; block 1 (keys 512..1023) partly.
;   row_max[p] = max over visible k of s[p, k]
;   row_sum[p] = sum over visible k of exp(s[p, k] - row_max[p])
;   probs[p, k] = softmax over the visible keys of row p (0 where masked)
; Both models compute the same float32 operations in the same order, so the
; defaults of nisa diff hold (S5: exp and reciprocal within rtol 1e-5).
;
; Run: nisa run prog.nasm --input scores=scores.npy --dump out/
;      nisa diff expected out/
.arch trn2
.equ  P, 128
.equ  BLOCK, 512
.equ  KEYS, 2 * BLOCK
.equ  Q_START, 600

.hbm  scores  f32 [P, KEYS] input
.hbm  probs   f32 [P, KEYS] output
.hbm  row_max f32 [P, 1]    output
.hbm  row_sum f32 [P, 1]    output

.sbuf s      f32 [P, KEYS]
.sbuf e      f32 [P, KEYS]
.sbuf lo     f32 [P, 1]
.sbuf hi     f32 [P, 1]
.sbuf m_old  f32 [P, 1]
.sbuf m_blk  f32 [P, 1]
.sbuf m_new  f32 [P, 1]
.sbuf neg_m  f32 [P, 1]
.sbuf l_old  f32 [P, 1]
.sbuf l_blk  f32 [P, 1]
.sbuf l_new  f32 [P, 1]
.sbuf corr   f32 [P, 1]
.sbuf rinv   f32 [P, 1]

memset dst=lo, value=0
iota dst=hi, base=Q_START, partition_step=1, free_step=0

; Key block 0: mask, max, numerators and their sum.
dma_copy dst=s[:, 0:BLOCK], src=scores[:, 0:BLOCK]
range_select dst=s[:, 0:BLOCK], on_true_tile=s[:, 0:BLOCK], comp_op0=greater_equal, comp_op1=less_equal, bound0=lo, bound1=hi, reduce_cmd=reset_reduce, reduce_res=m_old, range_start=0
tensor_scalar dst=neg_m, data=m_old, op0=multiply, operand0=-1.0
activation dst=e[:, 0:BLOCK], op=exp, data=s[:, 0:BLOCK], bias=neg_m, reduce_op=add, reduce_cmd=reset_reduce, reduce_res=l_old

; Key block 1: its max, the new running max, and the correction of block 0.
dma_copy dst=s[:, BLOCK:KEYS], src=scores[:, BLOCK:KEYS]
range_select dst=s[:, BLOCK:KEYS], on_true_tile=s[:, BLOCK:KEYS], comp_op0=greater_equal, comp_op1=less_equal, bound0=lo, bound1=hi, reduce_cmd=reset_reduce, reduce_res=m_blk, range_start=BLOCK
tensor_tensor dst=m_new, data1=m_old, data2=m_blk, op=maximum
tensor_scalar dst=neg_m, data=m_new, op0=multiply, operand0=-1.0
activation dst=corr, op=exp, data=m_old, bias=neg_m
activation dst=e[:, BLOCK:KEYS], op=exp, data=s[:, BLOCK:KEYS], bias=neg_m, reduce_op=add, reduce_cmd=reset_reduce, reduce_res=l_blk
tensor_scalar dst=l_new, data=l_old, op0=multiply, operand0=corr, op1=add, operand1=l_blk
tensor_scalar dst=e[:, 0:BLOCK], data=e[:, 0:BLOCK], op0=multiply, operand0=corr

; Normalise both blocks: probs = e * (1 / l).
activation dst=rinv, op=reciprocal, data=l_new
tensor_scalar dst=e, data=e, op0=multiply, operand0=rinv

dma_copy dst=probs, src=e
dma_copy dst=row_max, src=m_new
dma_copy dst=row_sum, src=l_new
