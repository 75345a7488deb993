; kv_cache_update: predicated write of new key/value entries into a bf16 KV cache.
;
; Pattern: the cache-update step of NKI token-generation attention kernels: the
; new K/V entries of the current step are merged into the resident bf16 cache
; in place, under a u8 mask, with tensor_copy_predicated (S4.2), then
; slots past each sequence's new length are cleared with the scalar form of the
; same instruction (src=0.0, reverse_pred=true on the validity mask), so that a
; stale entry of an earlier, longer sequence in that row can not leak into
; attention. The copies are bit-exact (S2.1); the cache never leaves bf16.
; Row p is one sequence of the batch (partition = sequence, free = cache slot);
; it appends n[p] in 1..4 new tokens (speculative decoding) at slot pos[p].
; The cache is processed in two 512-slot tiles (.rept).
;   cache[p, k] = new_kv[p, k]  where update[p, k] != 0     (pos[p] <= k < pos[p] + n[p])
;   cache[p, k] = 0             where valid[p, k] == 0      (k >= pos[p] + n[p])
;   cache[p, k] unchanged       elsewhere
; bf16 tensors are read from and written to .npy as float32 (LANGUAGE.md 3).
;
; Run: nisa run prog.nasm --input cache=cache.npy --input new_kv=new_kv.npy --input update=update.npy --input valid=valid.npy --dump out/
;      nisa diff expected out/
.arch trn2
.equ  P, 128
.equ  SLOTS, 1024
.equ  TILE, 512

.hbm  cache  bf16 [P, SLOTS] inout
.hbm  new_kv bf16 [P, SLOTS] input
.hbm  update u8   [P, SLOTS] input
.hbm  valid  u8   [P, SLOTS] input

.sbuf kv   bf16 [P, TILE]
.sbuf nkv  bf16 [P, TILE]
.sbuf upd  u8   [P, TILE]
.sbuf keep u8   [P, TILE]

.rept t, SLOTS / TILE
dma_copy dst=kv, src=cache[:, t * TILE:(t + 1) * TILE]
dma_copy dst=nkv, src=new_kv[:, t * TILE:(t + 1) * TILE]
dma_copy dst=upd, src=update[:, t * TILE:(t + 1) * TILE]
dma_copy dst=keep, src=valid[:, t * TILE:(t + 1) * TILE]
tensor_copy_predicated dst=kv, src=nkv, predicate=upd
tensor_copy_predicated dst=kv, src=0.0, predicate=keep, reverse_pred=true
dma_copy dst=cache[:, t * TILE:(t + 1) * TILE], src=kv
.endr
