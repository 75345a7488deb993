; The Tensor Engine batch's checks (docs/SEMANTICS.md S8): nc_matmul shapes,
; tiling, dtypes and PSUM limits; nc_transpose sizes and memories per engine;
; tensor_copy's engine rules.
.arch trn2
.sbuf a   f32 [128, 128]
.sbuf b   f32 [128, 1024]
.sbuf h   bf16 [128, 128]
.sbuf f8  fp8e4m3 [128, 2, 64]
.psum c   f32 [128, 512]
.psum cb  bf16 [128, 512]
.psum w   f32 [128, 2048]
.sbuf s   f32 [128, 512]
nc_matmul dst=c, stationary=a, moving=b[0:64, 0:512]
nc_matmul dst=c[0:64, :], stationary=a, moving=b[:, 0:512]
nc_matmul dst=w[:, 0:1024], stationary=a, moving=b
nc_matmul dst=cb, stationary=h, moving=h
nc_matmul dst=c[:, 0:128], stationary=a, moving=h
nc_matmul dst=c[:, 0:128], stationary=h, moving=h, tile_position=[64, 0]
nc_matmul dst=c[:, 0:128], stationary=h, moving=h, tile_position=[32, 0], tile_size=[64, 128]
nc_matmul dst=c[0:64, 0:128], stationary=h[:, 0:64], moving=h, tile_position=[0, 0], tile_size=[64, 64]
nc_matmul dst=c[0:64, 0:64], stationary=f8, moving=f8, perf_mode=double_row, tile_position=[0, 0], tile_size=[128, 64]
nc_matmul dst=c[:, 0:128], stationary=h, moving=h, perf_mode=double_row
nc_transpose dst=s[:, 0:128], data=a
nc_transpose dst=c[0:64, 0:64], data=a[0:64, 0:64], engine=vector
nc_transpose dst=c[0:64, 0:64], data=a[:, 0:64]
tensor_copy dst=s, src=c, engine=gpsimd
