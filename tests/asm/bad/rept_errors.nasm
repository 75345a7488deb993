; .rept/.endr pairing, counts, and errors inside a body reported once.
.sbuf t f32 [128, 8]
.endr
.rept i, -2
.endr
.rept j, 3
memset dst=t[:, j], value=undefined_name
.endr
.rept k, 2
memset dst=t, value=k
