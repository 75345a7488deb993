; SEMANTICS S17.3: a register's scalar_offset is bounded when the DMA runs, as
; an index tensor's is: the fourth tile of a loop over rows runs past x.
.arch trn2
.hbm  x f32 [6, 4] input = iota
.hbm  y f32 [6, 4] output
.sbuf t f32 [2, 4]
.reg  row
fori_loop var=row, upper=8, step=2
dma_copy dst=t, src=x.ap(pattern=[[4, 2], [1, 4]], offset=0, scalar_offset=row, indirect_dim=0)
dma_copy dst=y.ap(pattern=[[4, 2], [1, 4]], offset=0, scalar_offset=row, indirect_dim=0), src=t
end_loop
