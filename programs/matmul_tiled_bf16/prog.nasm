; matmul_tiled_bf16: result[M, N] = lhsT.T @ rhs for bf16 lhsT [K, M] and rhs
; [K, N] (K = 512, M = 256, N = 1024), the bf16 result written to HBM.
;
; Pattern: the NKI matrix-multiplication tutorial's tiled kernel
; (aws-neuron-sdk nki/examples/matrix_multiplication/
; matrix_multiplication_nki_kernels.py, nki_matmul_tiled_; the tutorial
; nki/guides/tutorials/matrix_multiplication.rst) with bf16 inputs: for each
; [128, 512] output tile, the K / 128 products of [128, 128] lhsT tiles
; (stationary) and [128, 512] rhs tiles (moving) accumulate in one float32
; PSUM tile (nc_matmul), tensor_copy moves it to SBUF rounding to bf16, and a
; DMA stores it. The kernel allocates a fresh PSUM tile per output tile and
; lets the compiler infer the accumulate flags; here one PSUM tile is reused,
; so the flags are spelled out as the docstring's hint accumulate=(k > 0):
; the first product overwrites, the others accumulate (SEMANTICS.md S8.3).
;   result[m, n] = bf16(sum over k of float32(lhsT[k, m]) * float32(rhs[k, n]))
;
; diff: --rtol 0 --atol 0
; (make_data.py's inputs are multiples of 1/4 in [-4, 4]: every product and
; partial sum is exact in float32, so only the final bf16 rounding remains.)
;
; Run: nisa run prog.nasm --input lhsT=lhsT.npy --input rhs=rhs.npy --dump out/
;      nisa diff expected out/
.arch trn2
.equ  K, 512                          ; K, M = lhsT.shape; K_, N = rhs.shape
.equ  M, 256
.equ  N, 1024
.equ  TILE_M, 128                     ; nl.tile_size.gemm_stationary_fmax
.equ  TILE_K, 128                     ; nl.tile_size.pmax
.equ  TILE_N, 512                     ; nl.tile_size.gemm_moving_fmax

.hbm  lhsT   bf16 [K, M] input
.hbm  rhs    bf16 [K, N] input
.hbm  result bf16 [M, N] output       ; nl.ndarray((M, N), dtype=lhsT.dtype, buffer=nl.shared_hbm)

.psum res_psum  f32  [TILE_M, TILE_N] ; nl.ndarray((TILE_M, TILE_N), nl.float32, buffer=nl.psum)
.sbuf lhsT_tile bf16 [TILE_K, TILE_M]
.sbuf rhs_tile  bf16 [TILE_K, TILE_N]
.sbuf res_sb    bf16 [TILE_M, TILE_N]

.rept m, M / TILE_M                   ; for m in nl.affine_range(M // TILE_M):
.rept n, N / TILE_N                   ;   for n in nl.affine_range(N // TILE_N):
; k = 0: the first product overwrites the PSUM tile
dma_copy dst=lhsT_tile, src=lhsT[0:TILE_K, m * TILE_M:(m + 1) * TILE_M]
dma_copy dst=rhs_tile, src=rhs[0:TILE_K, n * TILE_N:(n + 1) * TILE_N]
nc_matmul dst=res_psum, stationary=lhsT_tile, moving=rhs_tile, accumulate=false
.rept k1, K / TILE_K - 1              ;     for k in 1 .. K // TILE_K - 1: accumulate
dma_copy dst=lhsT_tile, src=lhsT[(k1 + 1) * TILE_K:(k1 + 2) * TILE_K, m * TILE_M:(m + 1) * TILE_M]
dma_copy dst=rhs_tile, src=rhs[(k1 + 1) * TILE_K:(k1 + 2) * TILE_K, n * TILE_N:(n + 1) * TILE_N]
nc_matmul dst=res_psum, stationary=lhsT_tile, moving=rhs_tile, accumulate=true
.endr
tensor_copy dst=res_sb, src=res_psum  ; PSUM -> SBUF, float32 -> bf16
dma_copy dst=result[m * TILE_M:(m + 1) * TILE_M, n * TILE_N:(n + 1) * TILE_N], src=res_sb
.endr
.endr
