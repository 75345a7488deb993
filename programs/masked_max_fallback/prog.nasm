; masked_max_fallback: row maximum of paged-attention scores under a KV-slot
; mask, with a per-row fallback value where a slot is masked.
;
; Pattern: the masking step of NKI paged/decode attention kernels (nki-samples
; flash_paged_attn: select_reduce with a predicate mask on the q.k^T block in
; PSUM, reset_reduce into the running row max). Here on_false is not one
; constant but a [P, 1] column, one value per query row: each row's attention
; sink logit, so a masked slot (and a row with no valid slot at all) falls back
; to the sink instead of -inf (S4.3; reduction S3).
; The score block sits in PSUM (where the matmul would leave it), the u8 slot
; mask in SBUF (S4.3 forbids both in PSUM). Two 256-slot tiles chain their
; maxima through the Vector accumulator: reset_reduce, then reduce with
; reduce_res.
;   selected[p, k] = valid[p, k] != 0 ? s[p, k] : sink[p]
;   row_max[p]     = max over k of selected[p, k]
;
; Run: nisa run prog.nasm --input scores=scores.npy --input valid=valid.npy --input sink=sink.npy --dump out/
;      nisa diff expected out/
.arch trn2
.equ  P, 128
.equ  SLOTS, 512
.equ  TILE, 256

.hbm  scores   f32 [P, SLOTS] input
.hbm  valid    u8  [P, SLOTS] input
.hbm  sink     f32 [P, 1]     input
.hbm  selected f32 [P, SLOTS] output
.hbm  row_max  f32 [P, 1]     output

.psum qk    f32 [P, SLOTS]
.sbuf mask  u8  [P, SLOTS]
.sbuf fall  f32 [P, 1]
.sbuf sel   f32 [P, SLOTS]
.sbuf rmax  f32 [P, 1]

dma_copy dst=qk, src=scores
dma_copy dst=mask, src=valid
dma_copy dst=fall, src=sink

select_reduce dst=sel[:, 0:TILE], predicate=mask[:, 0:TILE], on_true=qk[:, 0:TILE], on_false=fall, reduce_cmd=reset_reduce, reduce_op=maximum
select_reduce dst=sel[:, TILE:2 * TILE], predicate=mask[:, TILE:2 * TILE], on_true=qk[:, TILE:2 * TILE], on_false=fall, reduce_cmd=reduce, reduce_res=rmax, reduce_op=maximum

dma_copy dst=selected, src=sel
dma_copy dst=row_max, src=rmax
