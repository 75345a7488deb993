; NKI 0.6 operands written the natural way (issue 12's friction programs): each
; step is one instruction where nisa once needed a loop of DMAs.
;   - a [1, D] HBM vector broadcast to [128, D] with one dma_copy and a step-0
;     access pattern (NKI: v.ap(pattern=[[0, 128], [1, D]]), as layernorm and
;     rmsnorm kernels load their gain);
;   - a column of an HBM matrix into one tile row with one dma_copy (NKI:
;     m.ap(pattern=[[0, 1], [C, N]], offset=j), as find_nonzero_indices does);
;   - a 3-D HBM permute [A, B, F] -> [B, A, F] into a tile;
;   - an SBUF access pattern reading every other column, and one reading a row
;     backwards, as the inputs of a Vector instruction.
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
.sbuf tv     f32 [128, D]
.sbuf tcol   f32 [1, N]
.sbuf tperm  bf16 [8, 4, 32]
.sbuf tmix   f32 [128, D / 2]

dma_copy dst=tv, src=v.ap(pattern=[[0, 128], [1, D]])
dma_copy dst=bcast, src=tv
dma_copy dst=tcol, src=m.ap(pattern=[[0, 1], [C, N]], offset=3)
dma_copy dst=column, src=tcol
dma_copy dst=tperm, src=x.ap(pattern=[[32, 8], [8 * 32, 4], [1, 32]], offset=0)
dma_copy dst=perm, src=tperm
; even columns of tv plus its second half read backwards (S1.6: inputs first)
tensor_tensor dst=tmix, data1=tv.ap(pattern=[[D, 128], [2, D / 2]]), data2=tv.ap(pattern=[[D, 128], [-1, D / 2]], offset=D - 1), op=subtract
dma_copy dst=mixed, src=tmix
