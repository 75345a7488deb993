; moe_topk_routing: mixture-of-experts top-k routing of 256 tokens over 64
; experts: the K = 4 largest router logits of each token, their expert
; indices, their softmax (the affinities) and the affinities scattered back
; to a dense [tokens, experts] tensor (0 for experts not chosen).
;
; Pattern: nki-library's router_topk kernel (nkilib/core/router_topk/
; router_topk.py) with router_pre_norm=False, act_fn=SOFTMAX and the one-hot
; scatter, from the router logits on (its matmul x @ w + bias is not part of
; this program): tokens on partitions, experts on the free axis; per token
; tile, max8 gives the 8 largest logits in descending order (S4.32) and
; nc_find_index8 their expert indices (S4.33), of which the first K are kept
; (router_logits_topk = top8[:k], router_indexes_topk = find_index8(...)[:k]);
; ACT2 is a softmax over those K values: activation exp with bias -max and
; add-reduction (S4.6, S3), activation reciprocal of the sum, tensor_scalar;
; scatter_one_hot compares an iota of expert ids with each chosen index
; (tensor_scalar equal, then multiply by the affinity) and accumulates.
;   top[t, 0..K-1]  = the K largest logits[t, :], descending
;   idx[t, k]       = the expert of top[t, k] (first occurrence)
;   aff[t, k]       = exp(top[t, k] - top[t, 0]) / sum over j of exp(top[t, j] - top[t, 0])
;   dense[t, e]     = aff[t, k] if e == idx[t, k] for some k, else 0
;
; diff: --rtol 1e-5 --atol 1e-6
; (nisa diff's defaults: exp and reciprocal are float32 results within rtol
; 1e-5 of float64, S5.)
;
; Run: nisa run prog.nasm --input router_logits=router_logits.npy --dump out/
;      nisa diff expected out/
.arch trn2
.equ  P, 128
.equ  T, 256               ; tokens
.equ  E, 64                ; experts
.equ  K, 4                 ; experts per token (router_topk: k <= 8)

.hbm  router_logits     f32 [T, E] input
.hbm  topk_logits       f32 [T, K] output
.hbm  expert_index      u32 [T, K] output
.hbm  expert_affinities f32 [T, E] output

.sbuf logits f32 [P, E]
.sbuf top8   f32 [P, 8]
.sbuf idx8   u32 [P, 8]
.sbuf negmax f32 [P, 1]
.sbuf ex     f32 [P, K]
.sbuf rsum   f32 [P, 1]
.sbuf rinv   f32 [P, 1]
.sbuf aff    f32 [P, K]
.sbuf idxf   f32 [P, K]
.sbuf eid    f32 [P, E]
.sbuf onehot f32 [P, E]
.sbuf dense  f32 [P, E]

; Expert ids 0..E-1 on every partition, for the one-hot scatter.
iota dst=eid, pattern=[[1, E]], offset=0, channel_multiplier=0

.rept t, T / P
dma_copy dst=logits, src=router_logits[t * P:(t + 1) * P, :]
; Top-K: the 8 largest logits, then where they are.
max8 dst=top8, src=logits
nc_find_index8 dst=idx8, data=logits, vals=top8
; ACT2: softmax over the K kept logits (the largest is top8[:, 0]).
tensor_scalar dst=negmax, data=top8[:, 0:1], op0=multiply, operand0=-1.0
activation dst=ex, op=exp, data=top8[:, 0:K], bias=negmax, reduce_op=add, reduce_cmd=reset_reduce, reduce_res=rsum
activation dst=rinv, op=reciprocal, data=rsum
tensor_scalar dst=aff, data=ex, op0=multiply, operand0=rinv
; scatter_one_hot: dense[:, e] = sum over k of (e == idx[:, k]) * aff[:, k].
tensor_scalar dst=idxf, data=idx8[:, 0:K], op0=add, operand0=0.0
memset dst=dense, value=0.0
.rept k, K
tensor_scalar dst=onehot, data=eid, op0=equal, operand0=idxf[:, k:k + 1], op1=multiply, operand1=aff[:, k:k + 1]
tensor_tensor dst=dense, data1=dense, data2=onehot, op=add
.endr
dma_copy dst=topk_logits[t * P:(t + 1) * P, :], src=top8[:, 0:K]
dma_copy dst=expert_index[t * P:(t + 1) * P, :], src=idx8[:, 0:K]
dma_copy dst=expert_affinities[t * P:(t + 1) * P, :], src=dense
.endr
