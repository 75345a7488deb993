; Access patterns (LANGUAGE.md 2.3) in every spelling: keywords or positional,
; offset given or left out, negative and zero steps, expressions.
.arch trn2
.equ  W, 16
.hbm  v    f32 [1, 64] input = iota
.hbm  m    f32 [64, 8] input = iota
.hbm  x    bf16 [4, 8, W] input = 1.5
.hbm  y    f32 [64, 128] output
.hbm  z    bf16 [8, 4, W] output
.sbuf t    f32 [128, 64]
.sbuf r    f32 [1, 64]
.sbuf p    bf16 [8, 4, W]
.sbuf u    f32 [128, 64]
dma_copy dst=t, src=v.ap(pattern=[[0, 128], [1, 64]])
dma_copy dst=r, src=m.ap([[0, 1], [8, 64]], 3)
dma_copy dst=p, src=x.ap(offset=0, pattern=[[W, 8], [8 * W, 4], [1, W]])
dma_copy dst=z, src=p.ap(pattern=[[4 * W, 8], [W, 4], [1, W]], offset=0)
tensor_tensor dst=u.ap(pattern=[[64, 128], [-1, 64]], offset=63), data1=t, data2=t.ap(pattern=[[64, 128], [1, 64]]), op=add
tensor_scalar dst=u.ap(pattern=[[64, 64], [1, 32]], offset=64 * 64 + 32), data=u[64:128, 32:64], op0=multiply, operand0=2.0
dma_copy dst=y.ap(pattern=[[1, 64], [128, 64]], offset=64), src=u.ap(pattern=[[64, 64], [1, 64]], offset=0)
