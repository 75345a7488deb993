; dynamic_row_tiles: RMS normalisation of the first n rows of a [1024, 512]
; buffer, n known only at run time (an int32 scalar in HBM), 128 rows at a time.
;
; Pattern: nki-library's experimental dynamic_shapes kernels: a row count read
; from device memory and a runtime loop over 128-row tiles (NKI 0.7:
; nisa.scalar_load of the count, nl.fori_loop(0, n, 128)). Here register_load
; reads the count, `fori_loop var=row, upper=n, step=P` runs the tiles (the body
; once in the binary, SEMANTICS S17.2), and each tile is gathered and scattered
; through scalar_offset=REG views (S17.3): x and rstd by the row register, y by
; an element offset register_op computes (row * D, index_stride=1). The body is
; rmsnorm's (programs/rmsnorm), the gain broadcast to every partition by one
; step-0 DMA. For each tile t < ceil(n / 128), rows r = 128 t .. 128 t + 127:
;   ss[r]   = sum over i of x[r, i]^2                     (float32, left to right)
;   rstd[r] = 1 / sqrt(ss[r] * (1 / D) + EPS)
;   y[r, i] = x[r, i] * rstd[r] * gamma[i]
; the rows past the last tile stay 0 (outputs start zeroed), and
;   tiles   = ceil(n / 128)                             (counted by register_op)
; An n above 1024 makes the last tile's view leave x: a runtime fault naming
; its dma_copy (dma_copy oob_mode=error).
;
; diff: --rtol 1e-5 --atol 1e-6
; (nisa diff's defaults: rsqrt is a float32 result within rtol 1e-5 of float64, S5.)
;
; Run: nisa run prog.nasm --input x=x.npy --input gamma=gamma.npy --input n_rows=n_rows.npy --dump out/
;      nisa diff expected out/
.arch trn2
.equ  P, 128
.equ  D, 512
.equ  ROWS, 1024
.equ  EPS, 1e-6

.hbm  x      f32 [ROWS, D] input
.hbm  gamma  f32 [1, D] input
.hbm  n_rows i32 [1, 1] input
.hbm  y      f32 [ROWS, D] output
.hbm  rstd   f32 [ROWS, 1] output
.hbm  tiles  i32 [1, 1] output

.sbuf tx  f32 [P, D]
.sbuf tg  f32 [P, D]
.sbuf sq  f32 [P, D]
.sbuf ss  f32 [P, 1]
.sbuf ms  f32 [P, 1]
.sbuf rs  f32 [P, 1]

.reg  n                 ; the runtime row count
.reg  row               ; the tile's first row
.reg  at                ; the tile's first element of y
.reg  count             ; tiles done

dma_copy dst=tg, src=gamma.ap(pattern=[[0, P], [1, D]], offset=0)
register_load dst=n, src=n_rows
register_move dst=count, src=0
fori_loop var=row, upper=n, step=P
  dma_copy dst=tx, src=x.ap(pattern=[[D, P], [1, D]], offset=0, scalar_offset=row, indirect_dim=0)
  activation dst=sq, op=square, data=tx, reduce_op=add, reduce_cmd=reset_reduce, reduce_res=ss
  tensor_scalar dst=ms, data=ss, op0=multiply, operand0=1.0 / D, op1=add, operand1=EPS
  activation dst=rs, op=rsqrt, data=ms
  tensor_scalar dst=tx, data=tx, op0=multiply, operand0=rs
  tensor_tensor dst=tx, data1=tx, data2=tg, op=multiply
  register_op dst=at, src0=row, src1=D, op=multiply
  dma_copy dst=y.ap(pattern=[[D, P], [1, D]], offset=0, scalar_offset=at, indirect_dim=0, index_stride=1), src=tx
  dma_copy dst=rstd.ap(pattern=[[1, P], [1, 1]], offset=0, scalar_offset=row, indirect_dim=0), src=rs
  register_op dst=count, src0=count, src1=1, op=add
end_loop
register_store dst=tiles, src=count
