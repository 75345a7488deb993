; device_print (SEMANTICS S15.1): print_prefix is a quoted string, tensor a tensor that exists.
.hbm  h f32 [4, 8] input
.sbuf t f32 [4, 8]
device_print print_prefix=t, tensor=t
device_print print_prefix=3, tensor=t
device_print print_prefix="x", tensor=nope
device_print print_prefix="x", tensor="t"
device_print tensor=t
device_print print_prefix="no tensor"
device_print print_prefix="x", tensor=t[0:5, :]
device_print print_prefix="x", tensor=h.ap(pattern=[[8, 4], [1, 8]], offset=0, scalar_offset=t[0:1, 0:1])
device_print print_prefix="bell  here", tensor=t
device_print print_prefix="unterminated, tensor=t
