#!/usr/bin/python3
"""NKI 0.6 nki/test/test_nki_isa_bn_stats.py, re-expressed: per-partition mean
and variance with bn_stats then bn_aggr (docs/SEMANTICS.md S4.30, S4.31).
Example 1: a [128, 128] tile, one bn_stats. Example 2: a [128, 1024] tile as
two 512-wide bn_stats (nl.tile_size.bn_stats_fmax) into one [128, 12] tile,
then one bn_aggr. Inputs: random_sample * 100, as the test.
Golden (the test's own): np.allclose(mean, np.mean(x, axis=1, keepdims=True))
and np.allclose(var, np.var(x, axis=1, keepdims=True))."""
import numpy as np

from harness import main

EXAMPLE_1 = """
.hbm a_tensor f32 [128, 128] input
.hbm mean_a_tensor f32 [128, 1] output
.hbm var_a_tensor f32 [128, 1] output
.sbuf a f32 [128, 128]
.sbuf stats_a f32 [128, 6]
.sbuf mean_var_a f32 [128, 2]
dma_copy dst=a, src=a_tensor
bn_stats dst=stats_a, data=a
bn_aggr dst=mean_var_a, data=stats_a
dma_copy dst=mean_a_tensor, src=mean_var_a[:, 0:1]
dma_copy dst=var_a_tensor, src=mean_var_a[:, 1:2]
"""

EXAMPLE_2 = """
.equ bn_tile, 512
.hbm b_tensor f32 [128, 1024] input
.hbm mean_b_tensor f32 [128, 1] output
.hbm var_b_tensor f32 [128, 1] output
.sbuf b f32 [128, 1024]
.sbuf stats_b f32 [128, 12]
.sbuf mean_var_b f32 [128, 2]
dma_copy dst=b, src=b_tensor
bn_stats dst=stats_b[:, 0:6], data=b[:, 0:bn_tile]
bn_stats dst=stats_b[:, 6:12], data=b[:, bn_tile:2*bn_tile]
bn_aggr dst=mean_var_b, data=stats_b
dma_copy dst=mean_b_tensor, src=mean_var_b[:, 0:1]
dma_copy dst=var_b_tensor, src=mean_var_b[:, 1:2]
"""


def test_bn_stats_bn_aggr_1(nisa):
    np.random.seed(0)
    a = np.random.random_sample([128, 128]).astype(np.float32) * 100
    out = nisa.run(EXAMPLE_1, inputs={"a_tensor": a}, outputs=["mean_a_tensor", "var_a_tensor"], args=["--strict"])
    # np.allclose's defaults, as the NKI test
    nisa.close("mean_a_tensor", out["mean_a_tensor"], np.mean(a, axis=1, keepdims=True), rtol=1e-5, atol=1e-8)
    nisa.close("var_a_tensor", out["var_a_tensor"], np.var(a, axis=1, keepdims=True), rtol=1e-5, atol=1e-8)


def test_bn_stats_bn_aggr_2(nisa):
    np.random.seed(1)
    b = np.random.random_sample([128, 1024]).astype(np.float32) * 100
    out = nisa.run(EXAMPLE_2, inputs={"b_tensor": b}, outputs=["mean_b_tensor", "var_b_tensor"], args=["--strict"])
    nisa.close("mean_b_tensor", out["mean_b_tensor"], np.mean(b, axis=1, keepdims=True), rtol=1e-5, atol=1e-8)
    nisa.close("var_b_tensor", out["var_b_tensor"], np.var(b, axis=1, keepdims=True), rtol=1e-5, atol=1e-8)


STATS_ONLY = """
.hbm x_tensor f32 [128, 9] input
.hbm stats_tensor f32 [128, 6] output
.sbuf x f32 [128, 9]
.sbuf stats f32 [128, 6]
dma_copy dst=x, src=x_tensor
bn_stats dst=stats, data=x
dma_copy dst=stats_tensor, src=stats
"""


def test_bn_stats_layout(nisa):
    """The docstring's six statistics: count, mean, variance * count of the even
    elements, then of the odd ones (NumPy on x[:, 0::2] and x[:, 1::2])."""
    np.random.seed(2)
    x = np.random.random_sample([128, 9]).astype(np.float32) * 100
    out = nisa.run(STATS_ONLY, inputs={"x_tensor": x}, outputs=["stats_tensor"], args=["--strict"])
    golden = []
    for half in (x[:, 0::2].astype(np.float64), x[:, 1::2].astype(np.float64)):
        golden += [np.full(128, half.shape[1]), half.mean(axis=1), half.var(axis=1) * half.shape[1]]
    nisa.close("stats_tensor", out["stats_tensor"], np.stack(golden, axis=1), rtol=1e-5, atol=1e-4)


if __name__ == "__main__":
    main(globals())
