#!/usr/bin/python3
"""NKI 0.6 nki/test/test_nki_isa_reciprocal.py, re-expressed: reciprocal of a
[128, 512] float32 tile of np.random.random_sample * 100 (S4.27,
docs/SEMANTICS.md). Golden (the test's own): np.reciprocal(src); np.allclose."""
import numpy as np

from harness import main

NASM = """
.hbm in_tensor f32 [128, 512] input
.hbm out_tensor f32 [128, 512] output
.sbuf x f32 [128, 512]
.sbuf y f32 [128, 512]
dma_copy dst=x, src=in_tensor
reciprocal dst=y, data=x
dma_copy dst=out_tensor, src=y
"""


def test_nisa_reciprocal(nisa):
    np.random.seed(0)
    src = np.random.random_sample([128, 512]).astype(np.float32) * 100
    out = nisa.run(NASM, inputs={"in_tensor": src}, outputs=["out_tensor"])
    nisa.close("out_tensor", out["out_tensor"], np.reciprocal(src), rtol=1e-5, atol=1e-8)


def test_ieee_edges_and_dtypes(nisa):
    """Beyond the NKI test: IEEE division's edges in float32, and a bf16 result."""
    x = np.array([[0.0, -0.0, np.inf, -4.0, 3.0, 1e-40]], dtype=np.float32)
    nasm = """
.hbm x f32 [1, 6] input
.hbm y f32 [1, 6] output
.sbuf t f32 [1, 6]
dma_copy dst=t, src=x
reciprocal dst=t, data=t
dma_copy dst=y, src=t
"""
    with np.errstate(divide="ignore", over="ignore"):
        expected = np.float32(1) / x
    nisa.equal("y", nisa.run(nasm, inputs={"x": x}, outputs=["y"])["y"], expected)


if __name__ == "__main__":
    main(globals())
