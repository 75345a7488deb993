; masked_softmax: causal-masked softmax of a [128, 1024] score block, with the
; row maxima and row sums that flash attention carries between key blocks.
;
; Pattern: the softmax step of NKI flash attention (nki-samples attention
; kernels, and the softmax tutorial's exp(x - max) / sum): per key tile,
; range_select masks the scores and chains the row maximum through the Vector
; accumulator (S4.4, S3); activation exp with bias = -max (a [P, 1] column made
; by tensor_scalar multiply -1) exponentiates and sums each row into the Scalar
; accumulator (S4.6, S3); the reciprocal of the row sum (activation reciprocal
; on the [P, 1] column) scales the numerators (tensor_scalar multiply).
; The scores are taken as already scaled by 1/sqrt(d), as flash attention
; scales q before the matmul.
;
; Query row p is at position q = Q_START + p; key k is visible when k <= q
; (bound0 = 0 with greater_equal, bound1 = q with less_equal). Masked scores
; are fp32.min, whose exp(fp32.min - max) is exactly 0.
;   row_max[p] = max over visible k of s[p, k]
;   row_sum[p] = sum over k of exp(masked[p, k] - row_max[p])   (float32, left to right)
;   probs[p, k] = exp(masked[p, k] - row_max[p]) * (1 / row_sum[p])
;
; diff: --rtol 1e-5 --atol 1e-6
; (nisa diff's defaults: exp and reciprocal are float32 results within rtol
; 1e-5 of float64 (S5), and the sums add them in the same order in both models.)
;
; Run: nisa run prog.nasm --input scores=scores.npy --dump out/
;      nisa diff expected out/
.arch trn2
.equ  P, 128
.equ  KEYS, 1024
.equ  TILE, 512
.equ  Q_START, 700

.hbm  scores  f32 [P, KEYS] input
.hbm  probs   f32 [P, KEYS] output
.hbm  row_max f32 [P, 1]    output
.hbm  row_sum f32 [P, 1]    output

.sbuf s      f32 [P, KEYS]
.sbuf e      f32 [P, KEYS]
.sbuf lo     f32 [P, 1]
.sbuf hi     f32 [P, 1]
.sbuf rmax   f32 [P, 1]
.sbuf negmax f32 [P, 1]
.sbuf rsum   f32 [P, 1]
.sbuf rinv   f32 [P, 1]

dma_copy dst=s, src=scores
memset dst=lo, value=0
iota dst=hi, base=Q_START, partition_step=1, free_step=0

; Pass 1: masked scores and the row maximum, chained over the two key tiles.
range_select dst=s[:, 0:TILE], on_true_tile=s[:, 0:TILE], comp_op0=greater_equal, comp_op1=less_equal, bound0=lo, bound1=hi, reduce_cmd=reset_reduce, range_start=0
range_select dst=s[:, TILE:2 * TILE], on_true_tile=s[:, TILE:2 * TILE], comp_op0=greater_equal, comp_op1=less_equal, bound0=lo, bound1=hi, reduce_cmd=reduce, reduce_res=rmax, range_start=TILE

; bias = -max
tensor_scalar dst=negmax, data=rmax, op0=multiply, operand0=-1.0

; Pass 2: numerators exp(s - max) and the row sums, chained over the key tiles.
activation dst=e[:, 0:TILE], op=exp, data=s[:, 0:TILE], bias=negmax, scale=1.0, reduce_op=add, reduce_cmd=reset_reduce
activation dst=e[:, TILE:2 * TILE], op=exp, data=s[:, TILE:2 * TILE], bias=negmax, scale=1.0, reduce_op=add, reduce_cmd=reduce, reduce_res=rsum

; Normalise: probs = e * (1 / sum).
activation dst=rinv, op=reciprocal, data=rsum
.rept t, 2
tensor_scalar dst=e[:, t * TILE:(t + 1) * TILE], data=e[:, t * TILE:(t + 1) * TILE], op0=multiply, operand0=rinv
.endr

dma_copy dst=probs, src=e
dma_copy dst=row_max, src=rmax
dma_copy dst=row_sum, src=rsum
