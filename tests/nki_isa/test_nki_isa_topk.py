#!/usr/bin/python3
"""topk has no NKI 0.6 unit test; from its docstring's example (S4.36):
n = 42 bf16 elements in a 16-partition snake, src_x = ceil(42 / 16) = 3
columns, k = 8, par_dim 128 (eight groups of 16 partitions). Expectations in
NumPy: a group's snake is its [16, 3] block read column by column
(block.T.ravel()[:n]); val_dst holds the 8 largest in ascending order
(np.sort(snake)[-8:]) and idx_dst their snake indices (np.argsort), the
same on each partition of the group. Inputs: distinct bf16 values, so the
selection is unique; a second case checks the tie rule the model chose."""
import numpy as np

from harness import main

NASM = """
.equ par_dim, 128
.equ n, 42
.equ src_x, (n + 15) / 16
.equ k, 8
.hbm in_tensor bf16 [par_dim, src_x] input
.hbm val_out bf16 [par_dim, k] output
.hbm idx_out u32 [par_dim, k] output
.sbuf src bf16 [par_dim, src_x]
.sbuf val_dst bf16 [par_dim, k]
.sbuf idx_dst u32 [par_dim, k]
dma_copy dst=src, src=in_tensor
topk val_dst=val_dst, idx_dst=idx_dst, src=src, n=n
dma_copy dst=val_out, src=val_dst
dma_copy dst=idx_out, src=idx_dst
"""


def expected(in_tensor, n, k):
    vals = np.zeros((in_tensor.shape[0], k), dtype=np.float32)
    idx = np.zeros((in_tensor.shape[0], k), dtype=np.uint32)
    for g in range(in_tensor.shape[0] // 16):
        snake = in_tensor[16 * g:16 * (g + 1)].T.ravel()[:n]
        order = np.argsort(snake, kind="stable")[-k:]
        vals[16 * g:16 * (g + 1)] = snake[order]
        idx[16 * g:16 * (g + 1)] = order
    return vals, idx


def test_topk_docstring_example(nisa):
    rng = np.random.default_rng(0)
    # 128 x 3 distinct values, each exact in bf16 (halves below 96 need at most 8 significant bits)
    pool = np.arange(-192, 192, dtype=np.float32) / 2
    in_tensor = rng.permutation(pool)[:128 * 3].reshape(128, 3).astype(np.float32)
    out = nisa.run(NASM, inputs={"in_tensor": in_tensor}, outputs=["val_out", "idx_out"], args=["--strict"])
    vals, idx = expected(in_tensor, 42, 8)
    nisa.equal("val_out", out["val_out"], vals)
    nisa.equal("idx_out", out["idx_out"], idx)


def test_topk_ties(nisa):
    """S4.36's tie rule: of equal values the lower snake index ranks higher, so
    in the ascending output the higher index of a tie comes first."""
    in_tensor = np.zeros((128, 3), dtype=np.float32)
    in_tensor[:, 0] = 1.0    # snake elements 0..15 of each group are all 1.0
    in_tensor[:, 1] = 0.5    # 16..31: 0.5
    in_tensor[:, 2] = -1.0   # 32..41: -1 (42..47 are beyond n)
    out = nisa.run(NASM, inputs={"in_tensor": in_tensor}, outputs=["val_out", "idx_out"], args=["--strict"])
    nisa.equal("val_out", out["val_out"], np.ones((128, 8), dtype=np.float32))
    nisa.equal("idx_out", out["idx_out"], np.tile(np.arange(7, -1, -1, dtype=np.uint32), (128, 1)))


if __name__ == "__main__":
    main(globals())
