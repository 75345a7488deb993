; MX checks (S13): mx_scale, mx_matmul, the mx dtype class.
.arch trn3
.sbuf x  bf16 [128, 64]
.sbuf q  fp8e4m3fn_x4 [128, 16]
.sbuf qs fp8e8m0 [128, 16]
.sbuf r  fp8e5m2_x4 [48, 16]
.sbuf f  f32 [128, 16]
.psum c  f32 [16, 16]
.psum d  f32 [15, 16]
quantize_mx dst=q, src=x, dst_scale=qs[0:99, :]
quantize_mx dst=q[0:48, :], src=x[0:48, :], dst_scale=qs[0:8, :]
quantize_mx dst=q, src=x, dst_scale=qs[:, 0:8]
nc_matmul_mx dst=d, stationary=q[:, 0:15], moving=q, stationary_scale=qs, moving_scale=qs
nc_matmul_mx dst=d, stationary=q, moving=q, stationary_scale=qs, moving_scale=qs
tensor_copy dst=f, src=q
memset dst=q, value=0
