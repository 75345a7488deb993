; moe_routing: per-expert token lists of a mixture-of-experts router.
;
; Pattern: the token-dispatch step of NKI mixture-of-experts kernels: from the
; router's 0/1 assignment mask [experts, tokens] (top-2 of 8 experts per token),
; each expert gets the indices of its tokens and their count, computed tile by
; tile with nonzero_with_count and index_offset = the tile's first token, so the
; indices are global token ids (S4.1; trn2, NeuronCore-v3+).
; nonzero_with_count reads and writes only partition 16k (GpSimd core k's first
; partition), so expert e's mask row is loaded onto partition 16e and its results
; are read back from partition 16e; the other partitions are never touched.
; Per tile, the last column of the result holds the count; the counts of all
; tiles are gathered with one dma_copy per expert (a strided view of the count
; column out of row 16e).
;   token_ids[e, t, 0:n]   = global ids of the tokens of tile t routed to expert e (increasing)
;   token_ids[e, t, n:T]   = -1 (padding_val)
;   token_ids[e, t, T]     = n = counts[e, t]
;
; Run: nisa run prog.nasm --input routing=routing.npy --dump out/
;      nisa diff expected out/
.arch trn2
.equ  EXPERTS, 8
.equ  TOKENS, 2048
.equ  TILE, 512
.equ  TILES, TOKENS / TILE

.hbm  routing   f32 [EXPERTS, TOKENS]          input
.hbm  token_ids i32 [EXPERTS, TILES, TILE + 1] output
.hbm  counts    i32 [EXPERTS, TILES]           output

.sbuf mask f32 [128, TOKENS]
.sbuf res  i32 [128, TILES, TILE + 1]

; Expert e's mask row onto partition 16e (GpSimd core e's first partition).
.rept e, EXPERTS
dma_copy dst=mask[16 * e, :], src=routing[e, :]
.endr

; One nonzero_with_count per token tile; index_offset makes the ids global.
.rept t, TILES
nonzero_with_count dst=res[:, t, :], src=mask[:, t * TILE:(t + 1) * TILE], index_offset=t * TILE, padding_val=-1
.endr

; Per expert: its lists of all tiles, and the count column of every tile.
.rept e, EXPERTS
dma_copy dst=token_ids[e, :, :], src=res[16 * e, :, :]
dma_copy dst=counts[e, :], src=res[16 * e, :, TILE]
.endr
