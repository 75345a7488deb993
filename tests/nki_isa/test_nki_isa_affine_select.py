#!/usr/bin/python3
"""NKI 0.6 nki/test/test_nki_isa_affine_select.py, re-expressed: replace the
upper triangle (diagonal included) of a [128, 128] float32 tile with
fp32.min, keeping a[x, y] where y < x (S4.21, docs/SEMANTICS.md). NKI's test
writes the predicate as `iy < ix`; in the 0.6 signature that is the affine
value x*1 + y*(-1) compared greater than 0.
Golden (the test's own): b_golden = a; b_golden[np.triu_indices_from(a)] = fp32.min."""
import numpy as np

from harness import main

FP32_MIN = np.float32(-3.4028234663852886e38)

NASM = """
.hbm a_tensor f32 [128, 128] input
.hbm b_tensor f32 [128, 128] output
.sbuf a f32 [128, 128]
.sbuf b f32 [128, 128]
dma_copy dst=a, src=a_tensor
affine_select dst=b, pattern=[[-1, 128]], channel_multiplier=1, on_true_tile=a, on_false_value=fp32.min, cmp_op=greater
dma_copy dst=b_tensor, src=b
"""


def test_affine_select(nisa):
    rng = np.random.default_rng(0)
    a = (rng.random([128, 128]) * 100).astype(np.float32)
    out = nisa.run(NASM, inputs={"a_tensor": a}, outputs=["b_tensor"])
    b_golden = np.copy(a)
    b_golden[np.triu_indices_from(b_golden)] = FP32_MIN
    nisa.close("b_tensor", out["b_tensor"], b_golden, rtol=1e-5, atol=1e-8)


PATTERN = """
.hbm x i32 [8, 2, 3, 4] input
.hbm y i32 [8, 2, 3, 4] output
.hbm z bf16 [8, 2, 3, 4] output
.sbuf t i32 [8, 2, 3, 4]
.sbuf u bf16 [8, 2, 3, 4]
dma_copy dst=t, src=x
affine_select dst=u, pattern=[[5, 2], [-3, 3], [1, 4]], channel_multiplier=-2, on_true_tile=t, on_false_value=0.5, offset=7, cmp_op=le
affine_select dst=t, pattern=[[5, 2], [-3, 3], [1, 4]], channel_multiplier=-2, on_true_tile=t, on_false_value=-7, offset=7, cmp_op=greater_equal
dma_copy dst=y, src=t
dma_copy dst=z, src=u
"""


def test_pattern_and_dtypes(nisa):
    """The docstring's 4-level loop (three pattern entries, padded in front), in place on
    int32 (bits kept) and converted to bf16 (through float32)."""
    x = (np.arange(8 * 24, dtype=np.int32) * 1000 + 3).reshape(8, 2, 3, 4)
    out = nisa.run(PATTERN, inputs={"x": x}, outputs=["y", "z"])
    p, w, v, u = np.meshgrid(np.arange(8), np.arange(2), np.arange(3), np.arange(4), indexing="ij")
    affine = 7 + p * -2 + w * 5 + v * -3 + u * 1
    nisa.equal("y", out["y"], np.where(affine >= 0, x, -7))
    # bf16 of the int32 values: round to nearest even of float32's top 16 bits
    f = np.where(affine <= 0, x.astype(np.float32), np.float32(0.5)).astype(np.float32)
    bits = f.view(np.uint32).astype(np.uint64)
    rounded = ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16) << 16
    nisa.equal("z", out["z"].astype(np.float32), rounded.astype(np.uint32).view(np.float32))


if __name__ == "__main__":
    main(globals())
