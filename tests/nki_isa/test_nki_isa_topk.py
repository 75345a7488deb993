#!/usr/bin/python3
"""topk has no NKI 0.6 unit test; from its docstring's example (S4.36):
n = 42 bf16 elements in a 16-partition snake, src_x = ceil(42 / 16) = 3
columns, k = 8, par_dim 128 (eight groups of 16 partitions). Expectations in
NumPy: a group's snake is its [16, 3] block read column by column
(block.T.ravel()[:n]); val_dst holds the 8 largest in ascending order
(np.sort(snake)[-8:]) and idx_dst their snake indices (np.argsort), the
same on each partition of the group. Inputs: distinct bf16 values, so the
selection is unique; a second case checks the tie rule the model chose.

NKI 0.7 (`.nki 0.7`; https://awsdocs-neuron.readthedocs-hosted.com/en/v2.33.0/nki/api/generated/nki.isa.topk.html)
writes the same K results in the input's snake layout: result j of a group
at partition j % 16, column j // 16, so only the first ceil(K / 16) columns
are written. sorted=True: largest first; sorted=False (order left open by
the doc): the model's choice, snake-index order. Those cases use snake
element e = e + 64 * group, so every expectation can be written by hand."""
import numpy as np

from harness import main

NASM = """
.nki 0.6
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


# NKI 0.7: two groups (32 partitions), n = 42, K = 20: ceil(20 / 16) = 2
# columns written; val_dst is first filled with 7.0 to see that column 2
# (and later) keeps it.
NASM_07 = """
.nki 0.7
.hbm in_tensor bf16 [32, 3] input
.hbm val_out bf16 [32, 3] output
.hbm idx_out u32 [32, 2] output
.sbuf src bf16 [32, 3]
.sbuf val_dst bf16 [32, 20]
.sbuf idx_dst u32 [32, 20]
dma_copy dst=src, src=in_tensor
memset dst=val_dst, value=7.0
topk val_dst=val_dst, idx_dst=idx_dst, src=src, n=42{sorted}
dma_copy dst=val_out, src=val_dst[:, 0:3]
dma_copy dst=idx_out, src=idx_dst[:, 0:2]
"""


def snake_input():
    """Snake element e of group g (partition 16g + e % 16, column e // 16) is e + 64 g."""
    p = np.arange(32)[:, None]
    c = np.arange(3)[None, :]
    return (c * 16 + p % 16 + 64 * (p // 16)).astype(np.float32)


def run_07(nisa, sorted_text):
    return nisa.run(NASM_07.format(sorted=sorted_text), inputs={"in_tensor": snake_input()},
                    outputs=["val_out", "idx_out"], args=["--strict"])


def test_topk_07_sorted(nisa):
    """Sorted: result j is snake element 41 - j (index 41 - j), at partition
    j % 16, column j // 16. Partition q: column 0 = 41 - q; column 1 = 25 - q
    for q < 4 (results 16..19), else the zero the model writes; column 2: 7."""
    out = run_07(nisa, ", sorted=true")
    q = np.arange(32) % 16
    g = np.arange(32) // 16
    idx = np.stack([41 - q, np.where(q < 4, 25 - q, 0)], axis=1).astype(np.uint32)
    vals = np.stack([41 - q + 64 * g, np.where(q < 4, 25 - q + 64 * g, 0), np.full(32, 7)], axis=1).astype(np.float32)
    assert list(idx[0]) == [41, 25] and list(idx[19]) == [38, 22] and list(idx[5]) == [36, 0]  # by hand
    nisa.equal("val_out", out["val_out"], vals)
    nisa.equal("idx_out", out["idx_out"], idx)


def test_topk_07_unsorted(nisa):
    """Unsorted (the model's order: snake index): the 20 largest are elements
    22..41, result j = element 22 + j: partition q gets 22 + q in column 0
    and 38 + q in column 1 for q < 4."""
    for sorted_text in ("", ", sorted=false"):
        out = run_07(nisa, sorted_text)
        q = np.arange(32) % 16
        g = np.arange(32) // 16
        idx = np.stack([22 + q, np.where(q < 4, 38 + q, 0)], axis=1).astype(np.uint32)
        vals = np.stack([22 + q + 64 * g, np.where(q < 4, 38 + q + 64 * g, 0), np.full(32, 7)], axis=1).astype(np.float32)
        nisa.equal("val_out", out["val_out"], vals)
        nisa.equal("idx_out", out["idx_out"], idx)


def test_topk_06_has_no_sorted(nisa):
    """sorted= is NKI 0.7's: a 0.6 program that gives it is refused."""
    text = NASM_07.format(sorted=", sorted=true").replace(".nki 0.7", ".nki 0.6")
    err = nisa.run(text, inputs={"in_tensor": snake_input()}, outputs=["val_out"], expect_status=2)
    assert "'sorted' is NKI 0.7's: add '.nki 0.7'" in err, err


if __name__ == "__main__":
    main(globals())
