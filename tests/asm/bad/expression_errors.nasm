; Expressions: division by zero, non-integer shapes/offsets, unknown names, parentheses.
.equ COUNT, 4
.sbuf a f32 [128, COUNT / 0]
.sbuf b f32 [128, 2.5]
.sbuf c f32 [128, 4] @ 64 / 3.0
.sbuf t i32 [128, 4]
memset dst=t, value=CUONT
memset dst=t, value=(1 + 2
memset dst=t, value=1 +
