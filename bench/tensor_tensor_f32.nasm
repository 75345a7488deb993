; Benchmark tensor_tensor_f32: tensor_tensor add of two f32 [128, 2048] tiles, REPS times, accumulating into the first (z = z + y).
; bench-elements-per-rep: 262144
; bench-bytes-per-rep: 3145728   (tile bytes read + written per repetition)
;   build/nisa run bench/tensor_tensor_f32.nasm --dump out/   (or scripts/bench)
.arch trn2
.equ  REPS, 10000
.equ  N, 2048
.hbm  out  f32 [128, N] output
.sbuf z    f32 [128, N]
.sbuf y    f32 [128, N]

iota dst=z, base=0, partition_step=1, free_step=0.5
iota dst=y, base=0, partition_step=0, free_step=0.001
.rept i, REPS
tensor_tensor dst=z, data1=z, data2=y, op=add
.endr
dma_copy dst=out, src=z
