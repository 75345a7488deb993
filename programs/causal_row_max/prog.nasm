; causal_row_max: masked row maximum of one [128, 2048] attention score block.
;
; Pattern: the causal-mask step of NKI flash attention (nki-samples attention
; kernels): a query tile of 128 rows is scored against the keys in 512-wide
; tiles, each tile is masked with range_select using per-row bounds, and the
; running row maximum is chained through the Vector accumulator across the key
; tiles (NKI's range_select docstring: "chain multiple range_select operations"; S3, S4.4). The
; masked scores are kept (the next step of the kernel exponentiates them).
;
; Query row p sits at sequence position q = Q_START + p. Key k is visible when
;   q - WINDOW < k <= q        (causal, with a sliding window of WINDOW keys)
; so bound0 = q - WINDOW (comp_op0 greater) and bound1 = q (comp_op1
; less_equal), both made on chip as [128, 1] float32 columns with iota. The
; free index seen by range_select is range_start + i, with range_start = the
; key tile's first key. Masked scores become fp32.min (S4.4).
;   masked[p, k] = s[p, k] if visible else fp32.min
;   row_max[p]   = max over k of masked[p, k]
; Key tile 0 is partly visible, tile 1 fully, tile 2 partly, tile 3 not at all.
;
; Run: nisa run prog.nasm --input scores=scores.npy --dump out/
;      nisa diff expected out/
.arch trn2
.equ  P, 128
.equ  KEYS, 2048
.equ  TILE, 512
.equ  Q_START, 1200
.equ  WINDOW, 1024

.hbm  scores  f32 [P, KEYS] input
.hbm  masked  f32 [P, KEYS] output
.hbm  row_max f32 [P, 1]    output

.sbuf s    f32 [P, KEYS]
.sbuf lo   f32 [P, 1]
.sbuf hi   f32 [P, 1]
.sbuf rmax f32 [P, 1]

; Per-row bounds: hi[p] = Q_START + p, lo[p] = hi[p] - WINDOW.
iota dst=hi, base=Q_START, partition_step=1, free_step=0
iota dst=lo, base=Q_START - WINDOW, partition_step=1, free_step=0

; Key tile 0 starts the chain: reset_reduce.
dma_copy dst=s[:, 0:TILE], src=scores[:, 0:TILE]
range_select dst=s[:, 0:TILE], on_true_tile=s[:, 0:TILE], comp_op0=greater, comp_op1=less_equal, bound0=lo, bound1=hi, reduce_cmd=reset_reduce, range_start=0
dma_copy dst=masked[:, 0:TILE], src=s[:, 0:TILE]

; Key tiles 1 and 2 fold their maxima into the accumulator: reduce.
.rept t, 2
dma_copy dst=s[:, (t + 1) * TILE:(t + 2) * TILE], src=scores[:, (t + 1) * TILE:(t + 2) * TILE]
range_select dst=s[:, (t + 1) * TILE:(t + 2) * TILE], on_true_tile=s[:, (t + 1) * TILE:(t + 2) * TILE], comp_op0=greater, comp_op1=less_equal, bound0=lo, bound1=hi, reduce_cmd=reduce, range_start=(t + 1) * TILE
dma_copy dst=masked[:, (t + 1) * TILE:(t + 2) * TILE], src=s[:, (t + 1) * TILE:(t + 2) * TILE]
.endr

; Key tile 3 ends the chain and reads the accumulator out (reduce_res).
dma_copy dst=s[:, 3 * TILE:4 * TILE], src=scores[:, 3 * TILE:4 * TILE]
range_select dst=s[:, 3 * TILE:4 * TILE], on_true_tile=s[:, 3 * TILE:4 * TILE], comp_op0=greater, comp_op1=less_equal, bound0=lo, bound1=hi, reduce_cmd=reduce, reduce_res=rmax, range_start=3 * TILE
dma_copy dst=masked[:, 3 * TILE:4 * TILE], src=s[:, 3 * TILE:4 * TILE]

dma_copy dst=row_max, src=rmax
