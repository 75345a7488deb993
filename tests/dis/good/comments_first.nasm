# a program whose first lines are comments, with the default arch given
; explicitly and declarations after instructions

.arch trn2
.hbm  out  u16 [16, 4] output
.sbuf a    u16 [16, 4]
memset dst=a, value=65535
.sbuf b    f16 [16, 4] @ 1024
memset dst=b, value=-0.0
dma_copy dst=out, src=a   ; trailing comment
