; layernorm_bn_stats: LayerNorm of 256 token rows of width 1024 (two tiles of
; 128 rows), with a learned gain and bias, the mean and variance per row from
; bn_stats and bn_aggr.
;
; Pattern: the NKI LayerNorm tutorial kernel, version 2 (nki-samples
; src/nki_samples/tutorials/layernorm/layernorm_nki_kernel.py,
; nki_layernorm_kernel_v2), in the form of nki-library's
; apply_layer_norm_to_source_tensor_tile (nkilib/core/mlp/mlp_cte/
; mlp_cte_norm.py): rows on partitions; bn_stats on each 512-wide slice of a
; row (nl.tile_size.bn_stats_fmax) into one [128, 6 * 2] tile, one bn_aggr for
; the mean and variance (S4.30, S4.31), activation rsqrt with the epsilon as
; bias for 1/sqrt(var + eps) (S4.6), one tensor_scalar for
; (x - mean) * rstd (S4.10), then gamma (multiply) and beta (add), both
; broadcast to every partition by a DMA access pattern.
;   mean[r], var[r] = np.mean(x[r]), np.var(x[r])           (biased variance)
;   rstd[r]         = 1 / sqrt(var[r] + EPS)
;   y[r, i]         = (x[r, i] - mean[r]) * rstd[r] * gamma[i] + beta[i]
;
; diff: --rtol 1e-5 --atol 1e-6
; (nisa diff's defaults; expected/ comes from the reference model, which
; computes the same float32 operations.)
;
; Run: nisa run prog.nasm --input x=x.npy --input gamma=gamma.npy --input beta=beta.npy --dump out/
;      nisa diff expected out/
.arch trn2
.equ  P, 128
.equ  ROWS, 256
.equ  D, 1024
.equ  FMAX, 512            ; nl.tile_size.bn_stats_fmax
.equ  EPS, 1e-5

.hbm  x     f32 [ROWS, D] input
.hbm  gamma f32 [1, D] input
.hbm  beta  f32 [1, D] input
.hbm  y     f32 [ROWS, D] output
.hbm  mean_var f32 [ROWS, 2] output

.sbuf tg    f32 [P, D]
.sbuf tb    f32 [P, D]
.sbuf tx    f32 [P, D]
.sbuf stats f32 [P, 6 * (D / FMAX)]
.sbuf mv    f32 [P, 2]
.sbuf rstd  f32 [P, 1]

; gamma and beta on every partition (NKI: broadcast_to((pmax, D))).
dma_copy dst=tg, src=gamma.ap(pattern=[[0, P], [1, D]])
dma_copy dst=tb, src=beta.ap(pattern=[[0, P], [1, D]])

.rept t, ROWS / P
dma_copy dst=tx, src=x[t * P:(t + 1) * P, :]
.rept j, D / FMAX
bn_stats dst=stats[:, 6 * j:6 * (j + 1)], data=tx[:, j * FMAX:(j + 1) * FMAX]
.endr
bn_aggr dst=mv, data=stats
activation dst=rstd, op=rsqrt, data=mv[:, 1:2], bias=EPS
tensor_scalar dst=tx, data=tx, op0=subtract, operand0=mv[:, 0:1], op1=multiply, operand1=rstd
tensor_tensor dst=tx, data1=tx, data2=tg, op=multiply
tensor_tensor dst=tx, data1=tx, data2=tb, op=add
dma_copy dst=y[t * P:(t + 1) * P, :], src=tx
dma_copy dst=mean_var[t * P:(t + 1) * P, :], src=mv
.endr
