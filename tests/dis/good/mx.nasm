; Issue 13 MX batch (SEMANTICS.md S13): quantize_mx to both fp8 _x4 types,
; nc_matmul_mx with every key, packed and scale tiles moved by dma_copy.
.arch trn3
.hbm  w    fp4e2m1fn_x4 [64, 16] input = iota
.hbm  ws   fp8e8m0 [64, 16] input = 120
.hbm  out  fp8e4m3fn_x4 [128, 32] output
.sbuf x    bf16 [128, 128]
.sbuf xh   f16 [64, 64]
.sbuf q    fp8e4m3fn_x4 [128, 32]
.sbuf qs   fp8e8m0 [128, 32]
.sbuf r    fp8e5m2_x4 [64, 16]
.sbuf rs   uint8 [36, 16]
.sbuf f4   float4_e2m1fn_x4 [64, 16]
.sbuf f4s  float8_e8m0fnu [64, 16]
.psum c    f32 [32, 32]
.psum cb   bf16 [16, 16]
memset dst=x, value=1.5
memset dst=xh, value=-3
quantize_mx dst=q, src=x, dst_scale=qs
quantize_mx dst=r, src=xh, dst_scale=rs
dma_copy dst=out, src=q
dma_copy dst=f4, src=w
dma_copy dst=f4s, src=ws
nc_matmul_mx dst=c, stationary=q[:, 0:32], moving=q, stationary_scale=qs, moving_scale=qs
nc_matmul_mx dst=c, stationary=q[:, 0:32], moving=q, stationary_scale=qs, moving_scale=qs, accumulate=true
nc_matmul_mx dst=cb, stationary=r, moving=f4, stationary_scale=rs, moving_scale=f4s, tile_position=[0, 0], tile_size=[64, 128], accumulate=false
