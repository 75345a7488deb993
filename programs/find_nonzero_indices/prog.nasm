; find_nonzero_indices: per column of a [T, E] = [4096, 128] router tensor, the
; row (token) indices of its nonzero elements, padded with -1, and their count.
;
; Kernel: nki-library find_nonzero_indices (aws-neuron/nki-library,
; src/nkilib_src/nkilib/core/subkernels/find_nonzero_indices.py), on one
; NeuronCore, chunk_size = T, index_dtype int32. As the kernel does, columns
; are processed 8 per round, one per GpSimd core: a column's T values sit on
; partition 16k (the partition GpSimd core k reads), nonzero_with_count
; (padding_val=-1) writes the indices and the count there (S4.1), and an
; nc_stream_shuffle mask of 255s (S11.2) moves data between partitions.
; The kernel's per-tile Tensor Engine transposes (nc_matmul is_transpose) are
; one dma_transpose here (S11.1: [T, E] in HBM -> [E, T] in SBUF, bf16 bits
; exact), widened once to float32 on the Vector Engine (nonzero_with_count
; reads f32 or i32). Round r then shuffles columns 16k + r onto partitions
; 16k (mask[0] = r, mask[16] = 16 + r, every other entry 255: partitions
; left as they are). Its 8 index rows are stored as the kernel's
; _store_indices_and_count does, one dma_copy per GpSimd core (a DMA cannot
; step over SBUF partitions), and its counts are kept in column r of an SBUF
; tile (partition 16k: columns 16k .. 16k + 15), stored once at the end.
;   indices[c, 0:n]        = t with input_tensor[t, c] != 0, increasing (n = count)
;   indices[c, n:T]        = -1
;   nonzero_counts[c]      = n            (-0.0 counts as zero)
; 3 + 16 x 11 + 8 = 187 instructions (the same kernel as one DMA per element: 524,560).
;
; Run: nisa run --strict prog.nasm --input input_tensor=input_tensor.npy --dump out/
;      nisa diff expected out/
.arch trn2
.equ  T, 4096
.equ  E, 128
.equ  ROUNDS, 16                      ; E / 8 GpSimd cores

.hbm  input_tensor   bf16 [T, E] input
.hbm  indices        i32  [E, T] output
.hbm  nonzero_counts i32  [E]    output

.equ  CORES, 8

.sbuf xt   bf16 [E, T]                ; the input transposed: column c on partition c
.sbuf xf   f32  [E, T]                ; widened for nonzero_with_count
.sbuf cols f32  [E, T]                ; this round's columns on partitions 16k
.sbuf res  i32  [E, T + 1]            ; nonzero_with_count: indices, padding, count
.sbuf cnt  i32  [E, ROUNDS]           ; cnt[16k, r] = count of column 16k + r

dma_transpose dst=xt, src=input_tensor, axes=[1, 0]
tensor_scalar dst=xf, data=xt, op0=multiply, operand0=1.0
memset dst=res, value=-1              ; partitions other than 16k: defined, never stored

.rept r, ROUNDS
nc_stream_shuffle dst=cols, src=xf, shuffle_mask=[r, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 16 + r, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255]
nonzero_with_count dst=res, src=cols, index_offset=0, padding_val=-1
.rept k, CORES
dma_copy dst=indices[16 * k + r, :], src=res[16 * k, 0:T]
.endr
tensor_scalar dst=cnt[:, r], data=res[:, T], op0=multiply, operand0=1.0
.endr

.rept k, CORES
dma_copy dst=nonzero_counts.ap(pattern=[[16, 1], [1, 16]], offset=16 * k), src=cnt[16 * k, :]
.endr
