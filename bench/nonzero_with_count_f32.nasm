; Benchmark nonzero_with_count_f32: nonzero_with_count on a float32 [128, 2048] tile (every third element nonzero); GpSimd reads only partitions 16k (8 x 2048 elements), REPS times.
; bench-elements-per-rep: 16384
; bench-bytes-per-rep: 131104   (tile bytes read + written per repetition)
;   build/nisa run bench/nonzero_with_count_f32.nasm --dump out/   (or scripts/bench)
.arch trn2
.equ  REPS, 20000
.equ  N, 2048
.hbm  out  i32 [128, 2049] output
.sbuf x    f32 [128, N]
.sbuf t    i32 [128, 2049]

iota dst=x, base=0, partition_step=1, free_step=1
tensor_scalar dst=x, data=x, op0=multiply, operand0=0.33333334
.rept i, REPS
nonzero_with_count dst=t, src=x, index_offset=i % 16, padding_val=-1
.endr
dma_copy dst=out, src=t
