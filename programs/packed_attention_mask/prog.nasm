; packed_attention_mask: document-causal masking of packed sequences, fused with
; the PSUM -> SBUF copy and the downcast to bf16, and the row max on the way.
;
; Pattern: NKI flash attention with sequence packing (nki-samples attention
; kernels: "fuse PSUM->SBUF copy and masking in one range_select", with per-query
; bound_min/bound_max columns): several documents are packed into one
; 1024-token sequence; query q may see key k only inside its own document and
; causally: kv_start[q] <= k < kv_end[q] (kv_end = q + 1). The bounds come from
; the host as [128, 1] float32 columns. range_select reads the score block
; from PSUM (where the matmul leaves it), writes the masked scores to a bf16
; SBUF tile, and chains the row max through the Vector accumulator over the two
; 512-key tiles (S4.4, S3).
; The last 8 query rows are padding tokens with an empty range (kv_start =
; kv_end = 0): their whole row is masked. This is S4.4's numerical-stability
; note: the masked bf16 scores are -inf (fp32.min does not fit bf16, S2.4), while
; the float32 row max is fp32.min, computed before the output cast (S3).
;   masked[p, k] = bf16(s[p, k]) if kv_start[p] <= k < kv_end[p] else -inf
;   row_max[p]   = max over visible k of s[p, k], or fp32.min if none
; bf16 tensors are written to .npy as float32 (LANGUAGE.md 3).
;
; Run: nisa run prog.nasm --input scores=scores.npy --input kv_start=kv_start.npy --input kv_end=kv_end.npy --dump out/
;      nisa diff expected out/
.arch trn2
.equ  P, 128
.equ  KEYS, 1024
.equ  TILE, 512

.hbm  scores   f32  [P, KEYS] input
.hbm  kv_start f32  [P, 1]    input
.hbm  kv_end   f32  [P, 1]    input
.hbm  masked   bf16 [P, KEYS] output
.hbm  row_max  f32  [P, 1]    output

.psum qk   f32  [P, KEYS]
.sbuf sm   bf16 [P, KEYS]
.sbuf lo   f32  [P, 1]
.sbuf hi   f32  [P, 1]
.sbuf rmax f32  [P, 1]

dma_copy dst=qk, src=scores
dma_copy dst=lo, src=kv_start
dma_copy dst=hi, src=kv_end

range_select dst=sm[:, 0:TILE], on_true_tile=qk[:, 0:TILE], comp_op0=greater_equal, comp_op1=less, bound0=lo, bound1=hi, reduce_cmd=reset_reduce, range_start=0
range_select dst=sm[:, TILE:KEYS], on_true_tile=qk[:, TILE:KEYS], comp_op0=greater_equal, comp_op1=less, bound0=lo, bound1=hi, reduce_cmd=reduce, reduce_res=rmax, range_start=TILE

dma_copy dst=masked, src=sm
dma_copy dst=row_max, src=rmax
