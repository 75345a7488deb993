; Scalar Engine example: activation (S4.6).
; y = tanh(x * 0.01 - 1) in float32, and s[p] = sum over the row of y (the
; Scalar accumulator, reduce_op=add with reduce_cmd=reset_reduce, S3).
; The same computation is done twice, on partitions 0..63 and 64..127
; (S1.5: a 64-partition tile starts at 0 or 64), as a .rept over halves.
; Input x defaults to its row-major index.
;   nisa run prog.nasm --dump out/
.arch trn2
.equ  HALF, 64
.equ  N, 32
.hbm  x  f32 [2 * HALF, N] input = iota
.hbm  y  f32 [2 * HALF, N] output
.hbm  s  f32 [2 * HALF, 1] output
.sbuf tx f32 [2 * HALF, N]
.sbuf ty bf16 [2 * HALF, N]
.psum ts f32 [2 * HALF, 1]
.sbuf tsum f32 [2 * HALF, 1]
.sbuf y32 f32 [2 * HALF, N]

dma_copy dst=tx, src=x
.rept h, 2
activation dst=ty[h * HALF:(h + 1) * HALF], op=tanh, data=tx[h * HALF:(h + 1) * HALF], scale=0.01, bias=-1.0, reduce_op=add, reduce_res=ts[h * HALF:(h + 1) * HALF], reduce_cmd=reset_reduce
.endr
; bf16 -> f32 for the output, and PSUM -> SBUF (PSUM is never a DMA source).
activation dst=y32, op=copy, data=ty
tensor_scalar dst=tsum, data=ts, op0=add, operand0=0.0
dma_copy dst=y, src=y32
dma_copy dst=s, src=tsum
