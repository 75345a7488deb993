; transpose2d: each partition's row of a [128, X * Y] int8 tensor holds a
; row-major X x Y matrix (X = 24, Y = 40); the output holds, in the same row,
; that matrix transposed (Y x X, row-major).
;
; Pattern: the NKI transpose2d tutorial kernel (aws-neuron-sdk
; nki-samples src/nki_samples/tutorials/transpose2d/transpose2d_nki_kernels.py,
; tensor_transpose2D_kernel_): load the tensor into one SBUF tile, then one
; SBUF-to-SBUF copy whose two sides walk the elements in different orders:
;   out_tile[i_p0, i_f2 * X + i_f1] = nl.copy(in_tile[i_p0, i_f1 * Y + i_f2])
; The right-hand side is in_tile in row-major order; the left-hand side is
; the access pattern [[X * Y, 128], [1, X], [X, Y]] of out_tile (partition,
; then i_f1 with step 1, then i_f2 with step X). nl.copy is tensor_copy here
; (bits copied, both int8: SEMANTICS.md S8.1), then the tile is stored.
;   out[p, j * X + i] = in[p, i * Y + j]
;
; diff: --rtol 0 --atol 0
; (a copy: every byte exact.)
;
; Run: nisa run prog.nasm --input in_tensor=in_tensor.npy --dump out/
;      nisa diff expected out/
.arch trn2
.equ  P, 128                          ; sz_p, _ = in_tensor.shape
.equ  X, 24                           ; sz_f1, sz_f2 = shape2D
.equ  Y, 40

.hbm  in_tensor  i8 [P, X * Y] input
.hbm  out_tensor i8 [P, X * Y] output ; nl.ndarray(in_tensor.shape, dtype=in_tensor.dtype, buffer=nl.shared_hbm)
.sbuf in_tile    i8 [P, X * Y]
.sbuf out_tile   i8 [P, X * Y]        ; nl.ndarray(shape=(sz_p, sz_f2*sz_f1), dtype=out_tensor.dtype)

dma_copy dst=in_tile, src=in_tensor   ; in_tile = nl.load(in_tensor)
tensor_copy dst=out_tile.ap(pattern=[[X * Y, P], [1, X], [X, Y]], offset=0), src=in_tile
dma_copy dst=out_tensor, src=out_tile ; nl.store(out_tensor, value=out_tile)
