#!/usr/bin/python3
"""bn_aggr has no NKI 0.6 unit test of its own; from its docstring (S4.31):
dst = mean and variance per partition from one or more (count, mean,
variance * count) triples. Cases: several triples written by hand (NumPy
formula: the pooled mean and biased variance of the described elements),
the hand-derived example of docs/SEMANTICS.md S4.30/S4.31, and triples of
count 0 (skipped)."""
import numpy as np

from harness import main

NASM = """
.hbm stats_tensor f32 [128, 12] input
.hbm mv_tensor f32 [128, 2] output
.sbuf stats f32 [128, 12]
.sbuf mv f32 [128, 2]
dma_copy dst=stats, src=stats_tensor
bn_aggr dst=mv, data=stats
dma_copy dst=mv_tensor, src=mv
"""


def pooled(counts, means, m2s):
    """NumPy formula: total mean, and (sum of m2 + sum of count * (mean - total mean)^2) / count."""
    counts, means, m2s = (np.asarray(v, dtype=np.float64) for v in (counts, means, m2s))
    n = counts.sum(axis=1)
    mean = (counts * means).sum(axis=1) / n
    var = (m2s.sum(axis=1) + (counts * (means - mean[:, None]) ** 2).sum(axis=1)) / n
    return np.stack([mean, var], axis=1)


def test_bn_aggr_four_triples(nisa):
    rng = np.random.default_rng(3)
    counts = rng.integers(1, 512, size=(128, 4)).astype(np.float32)
    means = rng.uniform(-50, 50, size=(128, 4)).astype(np.float32)
    m2s = (rng.uniform(0, 900, size=(128, 4)) * counts).astype(np.float32)
    stats = np.stack([counts, means, m2s], axis=2).reshape(128, 12)
    out = nisa.run(NASM, inputs={"stats_tensor": stats}, outputs=["mv_tensor"], args=["--strict"])
    nisa.close("mv_tensor", out["mv_tensor"], pooled(counts, means, m2s), rtol=1e-5, atol=1e-4)


def test_bn_aggr_counts_zero_skipped(nisa):
    # [1, 2, 3, 4, 5] as bn_stats gives [3, 3, 8, 2, 3, 2] (even, odd halves);
    # a trailing pair of empty triples changes nothing: mean 3, variance 2.
    stats = np.tile(np.array([3, 3, 8, 2, 3, 2, 0, 7, 5, 0, -1, 1], dtype=np.float32), (128, 1))
    out = nisa.run(NASM, inputs={"stats_tensor": stats}, outputs=["mv_tensor"], args=["--strict"])
    nisa.equal("mv_tensor", out["mv_tensor"], np.tile(np.array([[3, 2]], dtype=np.float32), (128, 1)))


if __name__ == "__main__":
    main(globals())
