; scale_bias_gelu: fused per-channel scale, bias and GELU of an MLP activation
; block, with the row sums and row absolute maxima taken on the way.
;
; Pattern: the fused epilogue of NKI MLP / quantizing kernels (nki-samples
; rmsnorm_quant and the MLP kernels: scale and bias folded into the Scalar
; Engine's activation, with the statistics a following norm or fp8 quantization
; needs reduced in the same pass). Rows are channels (partition = channel, one
; scale and one bias per partition as [P, 1] columns), the free dimension is
; tokens, processed in two 512-token tiles. activate2 (S4.5;
; NeuronCore-v4, so .arch trn3) computes gelu(x * scale + bias) and chains the
; row sum through the Scalar accumulator (reduce_op add: reset_reduce, then
; reduce with reduce_res, S3); a second activate2 pass (op copy, both ALU
; stages bypassed) re-reads y and chains abs_max, the amax a quantizer divides by.
;   y[p, i]       = gelu(x[p, i] * scale[p] + bias[p])    gelu(v) = v * Phi(v), exact (erf)
;   row_sum[p]    = sum over i of y[p, i]                  (float32, left to right)
;   row_absmax[p] = max over i of |y[p, i]|
;
; diff: --rtol 1e-5 --atol 1e-6
; (nisa diff's defaults: gelu is a float32 result within rtol 1e-5 of float64 (S5);
; the few outputs of magnitude below 1e-11, where the pre-activation is below
; about -7, may differ relatively by more, but by far less than the atol.)
;
; Run: nisa run prog.nasm --input x=x.npy --input scale=scale.npy --input bias=bias.npy --dump out/
;      nisa diff expected out/
.arch trn3
.equ  P, 128
.equ  N, 1024
.equ  TILE, 512

.hbm  x          f32 [P, N] input
.hbm  scale      f32 [P, 1] input
.hbm  bias       f32 [P, 1] input
.hbm  y          f32 [P, N] output
.hbm  row_sum    f32 [P, 1] output
.hbm  row_absmax f32 [P, 1] output

.sbuf tx    f32 [P, N]
.sbuf ty    f32 [P, N]
.sbuf tsc   f32 [P, 1]
.sbuf tbi   f32 [P, 1]
.sbuf tsum  f32 [P, 1]
.sbuf tamax f32 [P, 1]

dma_copy dst=tx, src=x
dma_copy dst=tsc, src=scale
dma_copy dst=tbi, src=bias

; Pass 1: y = gelu(x * scale + bias), row sums chained over the two tiles.
activate2 dst=ty[:, 0:TILE], op=gelu, data=tx[:, 0:TILE], op0=multiply, imm0=tsc, op1=add, imm1=tbi, reduce_op=add, reduce_cmd=reset_reduce
activate2 dst=ty[:, TILE:2 * TILE], op=gelu, data=tx[:, TILE:2 * TILE], op0=multiply, imm0=tsc, op1=add, imm1=tbi, reduce_op=add, reduce_cmd=reduce, reduce_res=tsum

; Pass 2: row abs-max of y (copy with both ALU stages bypassed), chained likewise.
activate2 dst=ty[:, 0:TILE], op=copy, data=ty[:, 0:TILE], op0=bypass, imm0=0.0, op1=bypass, imm1=0.0, reduce_op=abs_max, reduce_cmd=reset_reduce
activate2 dst=ty[:, TILE:2 * TILE], op=copy, data=ty[:, TILE:2 * TILE], op0=bypass, imm0=0.0, op1=bypass, imm1=0.0, reduce_op=abs_max, reduce_cmd=reduce, reduce_res=tamax

dma_copy dst=y, src=ty
dma_copy dst=row_sum, src=tsum
dma_copy dst=row_absmax, src=tamax
