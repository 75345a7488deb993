; tensor_add: element-wise sum of two [256, 1024] float16 tensors, tile by tile.
;
; Pattern: the NKI tensor-addition tutorial kernel (aws-neuron-sdk
; nki/examples/tensor_addition/tensor_addition_nki_kernels.py, nki_tensor_add),
; ported line for line in docs/PORTING.md: two nl.affine_range loops over
; [128, 512] tiles become two nested .rept blocks, each nisa.dma_copy and
; nisa.tensor_tensor call becomes one instruction with the same keys, the
; Python slices a_input[m*TILE_M:(m+1)*TILE_M, n*TILE_N:(n+1)*TILE_N] keep their
; form, and the kernel's trn1 target becomes .arch trn1.
;   c[i, j] = float16(float32(a[i, j]) + float32(b[i, j]))   (S2.1: Vector
;   Engine arithmetic in float32, the result rounded to nearest even, S2.2)
;
; diff: --rtol 0 --atol 0
; (exact: one float32 addition and one rounding per element.)
;
; Run: nisa run prog.nasm --input a_input=a_input.npy --input b_input=b_input.npy --dump out/
;      nisa diff expected out/
.arch trn1                          ; os.environ["NEURON_PLATFORM_TARGET_OVERRIDE"] = "trn1"
.equ  M, 256                        ; M, N = a_input.shape
.equ  N, 1024
.equ  TILE_M, 128
.equ  TILE_N, 512

.hbm  a_input  f16 [M, N] input     ; kernel parameters
.hbm  b_input  f16 [M, N] input
.hbm  c_output f16 [M, N] output    ; nl.ndarray(a_input.shape, dtype=a_input.dtype, buffer=nl.shared_hbm)

.sbuf a_tile f16 [TILE_M, TILE_N]   ; nl.ndarray(shape=(TILE_M, TILE_N), dtype=a_input.dtype, buffer=nl.sbuf)
.sbuf b_tile f16 [TILE_M, TILE_N]
.sbuf c_tile f16 [TILE_M, TILE_N]

.rept m, M / TILE_M                 ; for m in nl.affine_range(M // TILE_M):
.rept n, N / TILE_N                 ;   for n in nl.affine_range(N // TILE_N):
dma_copy dst=a_tile, src=a_input[m * TILE_M:(m + 1) * TILE_M, n * TILE_N:(n + 1) * TILE_N]
dma_copy dst=b_tile, src=b_input[m * TILE_M:(m + 1) * TILE_M, n * TILE_N:(n + 1) * TILE_N]
tensor_tensor dst=c_tile, data1=a_tile, data2=b_tile, op=add
dma_copy dst=c_output[m * TILE_M:(m + 1) * TILE_M, n * TILE_N:(n + 1) * TILE_N], src=c_tile
.endr
.endr
