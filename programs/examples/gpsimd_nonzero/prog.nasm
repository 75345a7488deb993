; GpSimd Engine example: iota and nonzero_with_count (S4.1).
; iota writes t[p, i] = i - 4 (zero at i = 4); nonzero_with_count lists, for
; partitions 0, 16, ..., 112 only, the indices of nonzero elements plus
; index_offset, pads with -1, and stores the count last. Other partitions of
; the result keep their previous contents (zero here).
; A second pass reads the input x (default: row-major index, so only x[0, 0]
; is zero).
;   nisa run prog.nasm --dump out/
.arch trn2
.equ  N, 16
.hbm  x   i32 [128, N] input = iota
.hbm  r1  i32 [128, N + 1] output
.hbm  r2  i32 [128, N + 1] output
.sbuf t   i32 [128, N]
.sbuf tx  i32 [128, N]
.sbuf d1  i32 [128, N + 1]
.sbuf d2  i32 [128, N + 1]

iota dst=t, base=-4, partition_step=0, free_step=1
nonzero_with_count dst=d1, src=t, index_offset=100
dma_copy dst=tx, src=x
nonzero_with_count dst=d2, src=tx, padding_val=-7
dma_copy dst=r1, src=d1
dma_copy dst=r2, src=d2
