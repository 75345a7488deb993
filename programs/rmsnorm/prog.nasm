; rmsnorm: RMS normalisation of 128 token rows of width 1024, with a learned
; per-column gain.
;
; Pattern: the NKI RMSNorm tutorial kernel (nki-samples rmsnorm): tokens on
; partitions, hidden dimension on the free axis; the sum of squares comes from
; the Scalar Engine's activation square with its add-reduction (S4.6, S3), the
; inverse RMS from activation rsqrt on the [P, 1] column, the row scaling from
; tensor_scalar with that column, and the gain (one value per column, loaded on
; every partition by a broadcast of 128 DMAs, .rept) from tensor_tensor multiply.
;   ss[p]    = sum over i of x[p, i]^2                        (float32, left to right)
;   rstd[p]  = 1 / sqrt(ss[p] * (1 / D) + EPS)
;   y[p, i]  = x[p, i] * rstd[p] * gamma[i]
;
; diff: --rtol 1e-5 --atol 1e-6
; (nisa diff's defaults: rsqrt is a float32 result within rtol 1e-5 of float64, S5.)
;
; Run: nisa run prog.nasm --input x=x.npy --input gamma=gamma.npy --dump out/
;      nisa diff expected out/
.arch trn2
.equ  P, 128
.equ  D, 1024
.equ  EPS, 1e-6

.hbm  x     f32 [P, D] input
.hbm  gamma f32 [1, D] input
.hbm  y     f32 [P, D] output
.hbm  rstd  f32 [P, 1] output

.sbuf tx  f32 [P, D]
.sbuf tg  f32 [P, D]
.sbuf sq  f32 [P, D]
.sbuf ss  f32 [P, 1]
.sbuf ms  f32 [P, 1]
.sbuf rs  f32 [P, 1]

dma_copy dst=tx, src=x
; Broadcast the gain row to every partition.
.rept p, P
dma_copy dst=tg[p, :], src=gamma
.endr

activation dst=sq, op=square, data=tx, reduce_op=add, reduce_cmd=reset_reduce, reduce_res=ss
tensor_scalar dst=ms, data=ss, op0=multiply, operand0=1.0 / D, op1=add, operand1=EPS
activation dst=rs, op=rsqrt, data=ms
tensor_scalar dst=tx, data=tx, op0=multiply, operand0=rs
tensor_tensor dst=tx, data1=tx, data2=tg, op=multiply

dma_copy dst=y, src=tx
dma_copy dst=rstd, src=rs
