; Issue 13 data movement and random numbers (docs/SEMANTICS.md S11): every
; key of dma_transpose, nc_stream_shuffle, local_gather, nc_n_gather, rng,
; rand2, dropout, set_rng_seed, rand_set_state and rand_get_state.
.arch trn3
.hbm  a   bf16 [16, 128] input
.hbm  c   u16 [4, 3, 5] input
.hbm  e   i16 [2, 3, 4, 5] input
.sbuf at  bf16 [128, 16]
.sbuf ct  u16 [5, 3, 4]
.sbuf et  i16 [5, 24]
.sbuf x   f32 [128, 64]
.sbuf y   f32 [128, 64]
.sbuf i16t u16 [128, 4]
.sbuf g   f32 [128, 16]
.sbuf i32t u32 [128, 2, 3]
.sbuf h   f32 [128, 2, 3]
.sbuf seed u32 [1, 1]
.sbuf st6 u32 [128, 6]
.sbuf st24u u32 [32, 24]
.sbuf ri i16 [128, 8]
.psum rp u8 [64, 8]
.sbuf col f32 [128, 1]
.sbuf hb bf16 [128, 64]
dma_transpose dst=at, src=a
dma_transpose dst=ct, src=c, axes=[2, 1, 0], dge_mode=swdge, oob_mode=skip, priority=1
dma_transpose dst=et, src=e, axes=[3, 1, 2, 0]
dma_transpose dst=at[0:64, :], src=a[:, 0:64], dge_mode=hwdge
nc_stream_shuffle dst=y, src=x, shuffle_mask=[31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0]
nc_stream_shuffle dst=y[32:64, :], src=x[0:1, :], shuffle_mask=[0, 255, 0, 255, 0, 255, 0, 255, 0, 255, 0, 255, 0, 255, 0, 255, 0, 255, 0, 255, 0, 255, 0, 255, 0, 255, 0, 255, 0, 255, 0, 255]
local_gather dst=g, src_buffer=x, index=i16t, num_elem_per_idx=2, num_valid_indices=8
local_gather dst=x, src_buffer=y, index=i16t
nc_n_gather dst=h, data=y, indices=i32t
set_rng_seed src_seeds=seed
rand_set_state src_seeds=st6
rand_set_state src_seeds=st24u, engine=vector
rand_get_state dst=st6, engine=gpsimd
rand_get_state dst=st24u, engine=vector
rng dst=ri
rng dst=ri[0:32, :], engine=gpsimd
rng dst=rp, engine=vector
rand2 dst=x, min=col, max=2.5
rand2 dst=hb, min=-1, max=col
dropout dst=y, data=x, prob=0.25
dropout dst=hb, data=hb, prob=col
