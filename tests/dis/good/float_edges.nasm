; Values whose text form must read back to the same bits: NaN of both signs,
; the smallest denormal, fp32.max/min, expressions, int32 extremes.
.sbuf t f32 [2, 4]
.sbuf i i32 [2, 4] @ 64
.sbuf u u32 [2, 4] @ 128
.hbm  hx f32 [2, 4] input = nan
.hbm  hy f32 [2, 4] inout = -nan
.hbm  hz i32 [2, 4] input = -2147483648
.hbm  hu u32 [2, 4] input = 2147483647
memset dst=t, value=nan
memset dst=t, value=-nan
memset dst=t, value=1e-45
memset dst=t, value=3.4028235e38
memset dst=t, value=-3.4028235e38
memset dst=t, value=0.1+0.2
memset dst=t, value=1/3
memset dst=i, value=-2147483648
memset dst=u, value=2147483647
iota dst=i
iota dst=t, base=0.5
