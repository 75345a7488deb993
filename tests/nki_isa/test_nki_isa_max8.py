#!/usr/bin/python3
"""NKI 0.6 nki/test/test_nki_isa_max8.py, re-expressed: the 8 largest of each
row of a [32, 128] tile of nl.rand values (uniform [0, 1)), docs/SEMANTICS.md
S4.32. The test's own checks: shape (32, 8), values in [0, 1], each row
descending. Golden added here (NumPy): the last 8 of np.sort, reversed."""
import numpy as np

from harness import Mismatch, main

NASM = """
.hbm expr_a f32 [32, 128] input
.hbm a_tensor f32 [32, 8] output
.sbuf src f32 [32, 128]
.sbuf a f32 [32, 8]
dma_copy dst=src, src=expr_a
max8 dst=a, src=src
dma_copy dst=a_tensor, src=a
"""


def test_max8(nisa):
    rng = np.random.default_rng(0)
    expr_a = rng.random((32, 128)).astype(np.float32)
    a = nisa.run(NASM, inputs={"expr_a": expr_a}, outputs=["a_tensor"], args=["--strict"])["a_tensor"]
    if a.shape != (32, 8):
        raise Mismatch(f"shape {a.shape}, expected (32, 8)")
    if not (np.all(a >= 0) and np.all(a <= 1)):
        raise Mismatch("values outside [0, 1]")
    if not np.all(np.diff(a, axis=1) <= 0):
        raise Mismatch("values within rows should be descending")
    nisa.equal("a_tensor", a, np.flip(np.sort(expr_a, axis=1)[:, -8:], axis=1))


TIES = """
.hbm x f32 [4, 12] input
.hbm y f32 [4, 8] output
.sbuf t f32 [4, 12]
.sbuf m f32 [4, 8]
dma_copy dst=t, src=x
max8 dst=m, src=t
dma_copy dst=y, src=m
"""


def test_max8_ties_and_nan(nisa):
    """S4.32's choices: duplicates all count, NaN ranks above +inf (np.sort's order)."""
    x = np.array([[5, 1, 5, 2, 5, 3, 5, 4, 5, 0, 9, 9],
                  [np.nan, 1, np.inf, 2, -np.inf, 3, 4, 5, 6, 7, 8, np.nan],
                  [-1, -2, -3, -4, -5, -6, -7, -8, -9, -10, -11, -12],
                  [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]], dtype=np.float32)
    y = nisa.run(TIES, inputs={"x": x}, outputs=["y"], args=["--strict"])["y"]
    nisa.equal("y", y, np.flip(np.sort(x, axis=1)[:, -8:], axis=1))


if __name__ == "__main__":
    main(globals())
