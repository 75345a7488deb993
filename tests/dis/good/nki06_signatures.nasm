; NKI 0.6 signatures (LANGUAGE.md 2.4): list operands, iota's two forms,
; tensor_reduce's axis and keepdims, dma_copy's descriptor keys.
.arch trn2
.equ  N, 4
.hbm  y   i32 [4, 24] output
.hbm  z   f32 [4, 6] output
.sbuf t   i32 [4, 2, 3, 4]
.sbuf u   f32 [4, 2, 3, 4]
.sbuf r   f32 [4, 2, 3]
.sbuf k   f32 [4, 2, 1, 1]
.sbuf q   f32 [4, 1]
iota dst=t, pattern=[[100, 2], [10, 3], [1, N]], offset=-5, channel_multiplier=1000
iota dst=t, pattern=[[1, 24]]
iota dst=u, base=0.5, partition_step=-1, free_step=0.25
iota dst=u
tensor_reduce dst=r, data=u, op=add, axis=[3]
tensor_reduce dst=k, data=u, op=max, axis=[-2, -1], keepdims=true, negate=true
tensor_reduce dst=q, data=u, op=min, axis=[3 - 2, 2, N - 1]
tensor_reduce dst=q, data=u, op=abs_max
dma_copy dst=y, src=t, oob_mode=skip, dge_mode=hwdge, engine=scalar, priority=2
dma_copy dst=z, src=r, dge_mode=swdge
