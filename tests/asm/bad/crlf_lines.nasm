; CRLF line endings: the \r is not part of the line.
.sbuf t f32 [128, 4]
memset dst=t, value=2 +
