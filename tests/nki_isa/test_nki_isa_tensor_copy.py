#!/usr/bin/python3
"""NKI 0.6 nki/test/test_nki_isa_tensor_copy.py, re-expressed (docs/SEMANTICS.md
S8.1): an [8, 8] float32 tile copied on the Vector Engine.
Golden (the test's own): np.allclose(dst, np.copy(src)). Also, from the
docstring: the same copy on the Scalar and GpSimd engines, and a float32 to
bf16 copy through the "intermediate FP32 cast" (golden: NumPy's round to
nearest even of the float32 bits to bf16)."""
import numpy as np

from harness import main

NASM = """
.hbm in_tensor f32 [8, 8] input
.hbm out_tensor f32 [8, 8] output
.hbm out_scalar f32 [8, 8] output
.hbm out_gpsimd f32 [8, 8] output
.hbm out_bf16 bf16 [8, 8] output
.sbuf x f32 [8, 8]
.sbuf x_copy f32 [8, 8]
.sbuf x_scalar f32 [8, 8]
.sbuf x_gpsimd f32 [8, 8]
.sbuf x_bf16 bf16 [8, 8]
dma_copy dst=x, src=in_tensor
tensor_copy dst=x_copy, src=x, engine=vector
dma_copy dst=out_tensor, src=x_copy
tensor_copy dst=x_scalar, src=x, engine=scalar
dma_copy dst=out_scalar, src=x_scalar
tensor_copy dst=x_gpsimd, src=x, engine=gpsimd
dma_copy dst=out_gpsimd, src=x_gpsimd
tensor_copy dst=x_bf16, src=x
dma_copy dst=out_bf16, src=x_bf16
"""


def bf16_round(x):
    """float32 -> bf16 (round to nearest even on the bits), as float32."""
    bits = x.astype(np.float32).view(np.uint32).astype(np.uint64)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16 << 16
    return rounded.astype(np.uint32).view(np.float32)


def test_tensor_copy(nisa):
    np.random.seed(0)
    src = np.random.random_sample([8, 8]).astype(np.float32) * 100
    dst_golden = np.copy(src)
    out = nisa.run(NASM, inputs={"in_tensor": src})
    nisa.close("out_tensor", out["out_tensor"], dst_golden, rtol=1e-5, atol=1e-8)
    for name in ("out_tensor", "out_scalar", "out_gpsimd"):
        np.testing.assert_array_equal(out[name], dst_golden)  # bit-exact: same dtype (S8.1)
    np.testing.assert_array_equal(out["out_bf16"], bf16_round(src))


if __name__ == "__main__":
    main(globals())
