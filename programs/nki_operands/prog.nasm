; NKI 0.6 operands written the natural way (issue 12's friction programs): each
; step is one instruction where nisa once needed a loop of DMAs.
;   - a [1, D] HBM vector broadcast to [128, D] with one dma_copy and a step-0
;     access pattern (NKI: v.ap(pattern=[[0, 128], [1, D]]), as layernorm and
;     rmsnorm kernels load their gain);
;   - a column of an HBM matrix into one tile row with one dma_copy (NKI:
;     m.ap(pattern=[[0, 1], [C, N]], offset=j), as find_nonzero_indices does);
;   - a 3-D HBM permute [A, B, F] -> [B, A, F] into a tile;
;   - an SBUF access pattern reading every other column, and one reading a row
;     backwards, as the inputs of a Vector instruction;
;   - iota in NKI 0.6's form (pattern, offset, channel_multiplier; int32);
;   - tensor_scalar op0=equal (a 1/0 mask), tensor_tensor op=bitwise_and on
;     int32 bit patterns, tensor_reduce axis=[2] (keeping axis 1) and a NumPy
;     bool array as the value of a u8 (bool) input.
.arch trn2
.equ  D, 256
.equ  N, 96
.equ  C, 8
.hbm  v      f32 [1, D] input
.hbm  m      f32 [N, C] input
.hbm  x      bf16 [4, 8, 32] input
.hbm  bcast  f32 [128, D] output
.hbm  column f32 [1, N] output
.hbm  perm   bf16 [8, 4, 32] output
.hbm  mixed  f32 [128, D / 2] output
.hbm  keep   bool [128, 16] input
.hbm  ids    i32 [128, 16] output
.hbm  hits   f32 [128, 16] output
.hbm  masked i32 [128, 16] output
.hbm  sums   f32 [128, 4] output
.sbuf tv     f32 [128, D]
.sbuf tcol   f32 [1, N]
.sbuf tperm  bf16 [8, 4, 32]
.sbuf tmix   f32 [128, D / 2]
.sbuf tids   i32 [128, 16]
.sbuf tkeep  u8 [128, 16]
.sbuf twide  i32 [128, 16]
.sbuf thits  f32 [128, 16]
.sbuf tmask  i32 [128, 16]
.sbuf tsums  f32 [128, 4]

dma_copy dst=tv, src=v.ap(pattern=[[0, 128], [1, D]])
dma_copy dst=bcast, src=tv
dma_copy dst=tcol, src=m.ap(pattern=[[0, 1], [C, N]], offset=3)
dma_copy dst=column, src=tcol
dma_copy dst=tperm, src=x.ap(pattern=[[32, 8], [8 * 32, 4], [1, 32]], offset=0)
dma_copy dst=perm, src=tperm
; even columns of tv plus its second half read backwards (S1.6: inputs first)
tensor_tensor dst=tmix, data1=tv.ap(pattern=[[D, 128], [2, D / 2]]), data2=tv.ap(pattern=[[D, 128], [-1, D / 2]], offset=D - 1), op=subtract
dma_copy dst=mixed, src=tmix

; ids[p, i] = 1000 + 16 p + i (NKI 0.6 iota: offset + p * channel_multiplier + i * step)
iota dst=tids, pattern=[[1, 16]], offset=1000, channel_multiplier=16
dma_copy dst=ids, src=tids
; hits = (tv[:, 0:16] == tv[:, 16:32] reversed) as 1.0/0.0: true where they meet
tensor_scalar dst=thits, data=tv[:, 0:16], op0=equal, operand0=0.0
tensor_tensor dst=thits, data1=thits, data2=tv.ap(pattern=[[D, 128], [1, 16]], offset=16), op=maximum
dma_copy dst=hits, src=thits
; masked = ids & 0xF0 where the bool input keeps them: keep (0/1) widened to 0xFF...
dma_copy dst=tkeep, src=keep
tensor_scalar dst=twide, data=tkeep, op0=multiply, operand0=-1.0
tensor_tensor dst=tmask, data1=tids, data2=twide, op=bitwise_and
tensor_scalar dst=tmask, data=tmask, op0=bitwise_and, operand0=0xF0
dma_copy dst=masked, src=tmask
; sums[p, j] = sum of hits[p, 4 j .. 4 j + 3]: hits viewed as [128, 4, 4], axis 2 reduced
tensor_reduce dst=tsums, data=thits.ap(pattern=[[16, 128], [4, 4], [1, 4]]), op=add, axis=[2]
dma_copy dst=sums, src=tsums
