; List operands (LANGUAGE.md 2.4): each error at its key's column.
.sbuf t i32 [4, 2, 3]
.sbuf d f32 [4, 2, 3]
.sbuf r f32 [4, 2]
iota dst=t, pattern=[[1, 6, 2]]
iota dst=t, pattern=[[1, 6]
iota dst=t, pattern=[1, 6]
iota dst=t, pattern=[[1.5, 6]]
iota dst=t, pattern=[[1, 6]], base=2
iota dst=t, channel_multiplier=2
iota dst=t, pattern=[[1, 5]]
iota dst=t, pattern=[[1, 3000000000]]
tensor_reduce dst=r, data=d, op=add, axis=[1]
tensor_reduce dst=r, data=d, op=add, axis=[0, 1, 2]
tensor_reduce dst=d, data=d, op=add, axis=[2]
tensor_reduce dst=r, data=d, op=add, axis=[x]
dma_copy dst=r, src=r, engine=sync
