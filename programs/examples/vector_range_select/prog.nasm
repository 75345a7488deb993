; Vector Engine example: range_select (S4.4).
; Keeps x[p, i] where lo[p] <= i < hi[p] (i = free index + range_start), puts
; fp32.min elsewhere, and writes each partition's maximum of the result to m
; through the Vector accumulator (reduce_cmd=reset_reduce, S3).
; Inputs default to INIT values: x = row-major index, lo = 8, hi = 24.
;   nisa run prog.nasm --dump out/
.arch trn2
.equ  P, 128
.equ  N, 64
.hbm  x   f32 [P, N] input = iota
.hbm  lo  f32 [P, 1] input = 8
.hbm  hi  f32 [P, 1] input = 24
.hbm  y   f32 [P, N] output
.hbm  m   f32 [P, 1] output
.sbuf tx  f32 [P, N]
.sbuf tlo f32 [P, 1]
.sbuf thi f32 [P, 1]
.sbuf tm  f32 [P, 1]

dma_copy dst=tx, src=x
dma_copy dst=tlo, src=lo
dma_copy dst=thi, src=hi
range_select dst=tx, on_true_tile=tx, comp_op0=greater_equal, comp_op1=less, bound0=tlo, bound1=thi, reduce_cmd=reset_reduce, reduce_res=tm
dma_copy dst=y, src=tx
dma_copy dst=m, src=tm
