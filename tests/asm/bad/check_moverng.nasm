; Issue 13 checks (S11): transposed_by_axes, shuffle_quadrants, local_gather_layout, rng_state_shape.
.hbm  a  f16 [16, 128] input = 0
.hbm  c  f16 [4, 3, 5] input = 0
.sbuf t  f16 [128, 16]
.sbuf w  f16 [128, 8]
.sbuf x  f32 [128, 8]
.sbuf y  f32 [128, 4]
.sbuf i  u16 [128, 2]
.sbuf g  f32 [128, 8]
.sbuf q  f16 [5, 12]
.sbuf s2 u32 [1, 2]
.sbuf st u32 [128, 6]
dma_transpose dst=w, src=a
dma_transpose dst=t, src=a, axes=[2, 1, 0]
dma_transpose dst=q, src=c, axes=[1, 0]
dma_transpose dst=t, src=a[:, 0:128:2]
nc_stream_shuffle dst=y, src=x, shuffle_mask=[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31]
nc_stream_shuffle dst=x[16:48, :], src=x[64:96, :], shuffle_mask=[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31]
nc_stream_shuffle dst=x[0:32, :], src=x[32:64, :], shuffle_mask=[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 32]
nc_stream_shuffle dst=x[0:32, :], src=x[32:33, :], shuffle_mask=[0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
nc_stream_shuffle dst=x[0:32, :], src=x[32:64, :], shuffle_mask=[0, 1]
local_gather dst=g[8:24, :], src_buffer=x[8:24, :], index=i[8:24, :]
local_gather dst=g, src_buffer=x, index=i, num_elem_per_idx=3
local_gather dst=g, src_buffer=x, index=i, num_valid_indices=40
local_gather dst=g, src_buffer=x, index=i, num_elem_per_idx=2
set_rng_seed src_seeds=s2
rand_get_state dst=st, engine=vector
