.sbuf t f32 [1, 1]
memset dst=t, value=1e20
