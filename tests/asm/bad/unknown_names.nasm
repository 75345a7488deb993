; Unknown dtypes, tensors, roles, archs and directives, with suggestions.
.hbm  x  f33 [128, 4] input
.hbm  z  float23 [4] input
.hbm  w  f32 [4] inptu
.sbuf tx f32 [128, 4]
.rep i, 2
dma_copy dst=tx, src=xx
dma_copy dst=txx, src=tx
memset dst=nothing_like_it, value=0
