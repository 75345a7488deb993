; The lexer: characters outside the language, malformed numbers, strings.
.sbuf t f32 [128, 4]
memset dst=t, value=$5
memset dst=t, value=12abc
.file "unterminated
memset dst=t, value=0x
