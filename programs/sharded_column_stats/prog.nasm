; sharded_column_stats: per-feature absolute maximum and mean over 256 token
; rows, the rows split between the two cores of a logical NeuronCore (LNC=2).
;
; Pattern: the sharded reductions of nki-library (indexed_flatten's max
; all-reduce, layernorm_tkg's packed partial sums): each core reduces its own
; shard, the cores swap their partial results with one sendrecv
; (send_to_rank = recv_from_rank = 1 - shard_id, pipe_id 0), and each combines
; its partial with the other's. Like an NKI kernel launched with kernel[2], the
; program has no .core sections: every core runs its lines, with `core`
; standing for nl.program_id(0), and its SBUF tensors are each core's own
; (LANGUAGE.md 2.7). Core K handles rows [K*P, (K+1)*P).
;   part_K[i] = (max over its rows r of |x[r, i]|, sum over its rows r of x[r, i])
;               (tensor_partition_reduce: partitions in order 0..P-1, float32)
;   absmax[i] = max(part_0 absmax[i], part_1 absmax[i])
;   mean[i]   = (part_0 sum[i] + part_1 sum[i]) * (1 / 256)
; The two partials travel packed in one [1, 2N] tile, [absmax | sum], so one
; exchange carries both (as layernorm_tkg packs [sum(x^2) | sum(x)]). Both cores
; then hold the whole result; each writes its half of the columns (core K:
; [K*N/2, (K+1)*N/2)), so no HBM byte is written twice.
;
; diff: --rtol 0 --atol 0
; (absmax is exact; the sums are float32 in a fixed order, S4.22, and the model
; follows that order, so the mean is exact too.)
;
; Run: nisa run prog.nasm --input x=x.npy --dump out/
;      nisa diff expected out/ --rtol 0 --atol 0
.arch trn2
.cores 2                 ; LNC=2: two cores, trn2's maximum
.equ  P, 128             ; rows per core (tokens on partitions)
.equ  N, 1024            ; features
.equ  HALF, N / 2        ; the columns each core writes

; Kernel arguments and outputs are shared HBM: both cores see one tensor.
; (SBUF below: each core its own.)
.hbm  x          f32 [2 * P, N] input
.hbm  col_absmax f32 [1, N]     output
.hbm  col_mean   f32 [1, N]     output

.sbuf tx    f32 [P, N]
.sbuf ta    f32 [P, N]
.sbuf part  f32 [1, 2 * N]   ; this core's [absmax | sum]
.sbuf peer  f32 [1, 2 * N]   ; the other core's, received
.sbuf stats f32 [1, 2 * N]   ; combined: [absmax | mean]

dma_copy dst=tx, src=x[core * P:(core + 1) * P, :]
; |x| on the Scalar Engine (S5 abs), then the partial reductions over this core's rows.
activation dst=ta, op=abs, data=tx
tensor_partition_reduce dst=part[:, 0:N], op=maximum, data=ta
tensor_partition_reduce dst=part[:, N:2 * N], op=add, data=tx

; The all-reduce: swap partials with the other core, then combine.
sendrecv src=part, dst=peer, send_to_rank=1 - core, recv_from_rank=1 - core, pipe_id=0
tensor_tensor dst=stats[:, 0:N], data1=part[:, 0:N], data2=peer[:, 0:N], op=maximum
tensor_tensor dst=stats[:, N:2 * N], data1=part[:, N:2 * N], data2=peer[:, N:2 * N], op=add
tensor_scalar dst=stats[:, N:2 * N], data=stats[:, N:2 * N], op0=multiply, operand0=1.0 / (2 * P)

; This core's half of the columns of each result.
dma_copy dst=col_absmax[:, core * HALF:(core + 1) * HALF], src=stats[:, core * HALF:(core + 1) * HALF]
dma_copy dst=col_mean[:, core * HALF:(core + 1) * HALF], src=stats[:, N + core * HALF:N + (core + 1) * HALF]
