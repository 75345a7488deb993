; Baseline: dma_copy SBUF -> SBUF of a float32 [128, 2048] tile, REPS times
; (a plain memcpy of 8 KiB per partition).
; Elements copied: REPS * 128 * 2048.
;   /usr/bin/time -v build/nisa run bench/memcpy_f32.nasm
; (subtract a run with REPS = 1 to separate start-up).
; bench-elements-per-rep: 262144
; bench-bytes-per-rep: 2097152   (tile bytes read + written per repetition)
.arch trn2
.equ  REPS, 10000
.equ  N, 2048
.hbm  m    f32 [128, 1] output
.sbuf x    f32 [128, N]
.sbuf y    f32 [128, N]

iota dst=x, base=0, partition_step=1, free_step=0.5
.rept i, REPS
dma_copy dst=y, src=x
.endr
dma_copy dst=m, src=y[:, 2047]
