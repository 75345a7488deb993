; Issue 13 Tensor Engine batch (SEMANTICS.md S8): tensor_copy on each engine,
; nc_matmul with every key (tiling, accumulate, double_row on fp8),
; nc_transpose on the Tensor and Vector engines.
.arch trn3
.hbm  x    f32 [128, 128] input = iota
.hbm  y    f32 [128, 512] output
.sbuf a    f32 [128, 128]
.sbuf b    bf16 [128, 512]
.sbuf h    bf16 [128, 128]
.sbuf f8   fp8e5m2 [128, 2, 64]
.sbuf g8   fp8e4m3 [128, 2, 512]
.sbuf s    f32 [128, 512]
.psum c    f32 [128, 512]
.psum cb   bf16 [128, 512]
.psum t    f32 [128, 128]
.sbuf v    f32 [32, 32]
dma_copy dst=a, src=x
memset dst=b, value=0.25
memset dst=g8, value=1.5
tensor_copy dst=b[:, 0:128], src=a
tensor_copy dst=h, src=a, engine=gpsimd
tensor_copy dst=h, src=a, engine=scalar
tensor_copy dst=f8, src=b[:, 0:128], engine=vector
tensor_copy dst=g8[:, 0, 0:128], src=h
tensor_copy dst=g8[:, 1, 0:128], src=h
tensor_copy dst=b, src=g8[:, 0, :]
nc_matmul dst=c, stationary=h, moving=b, accumulate=false
nc_matmul dst=c, stationary=h, moving=b, accumulate=true, is_stationary_onezero=false, is_moving_onezero=true
nc_matmul dst=c[0:64, :], stationary=h[0:64, 0:64], moving=b[0:64, :], tile_position=[64, 64], tile_size=[64, 64]
nc_matmul dst=cb[0:64, :], stationary=f8, moving=g8, perf_mode=double_row
nc_matmul dst=t, stationary=a, moving=a, is_transpose=true
nc_transpose dst=t, data=a
nc_transpose dst=v, data=a[0:32, 0:32], engine=vector
nc_transpose dst=t[0:32, :], data=a[:, 0:32], engine=tensor
tensor_copy dst=s, src=c
dma_copy dst=y, src=s
