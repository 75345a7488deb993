#!/usr/bin/python3
"""NKI 0.6 nki/test/test_nki_isa_tensor_tensor.py, re-expressed: add two
[128, 512] float32 tiles with tensor_tensor op=add (S7, docs/SEMANTICS.md).
Golden (the test's own): np.allclose(c, np.add(a, b))."""
import numpy as np

from harness import main

NASM = """
.hbm a_tensor f32 [128, 512] input
.hbm b_tensor f32 [128, 512] input
.hbm c_tensor f32 [128, 512] output
.sbuf a f32 [128, 512]
.sbuf b f32 [128, 512]
.sbuf c f32 [128, 512]
dma_copy dst=a, src=a_tensor
dma_copy dst=b, src=b_tensor
tensor_tensor dst=c, data1=a, data2=b, op=add
dma_copy dst=c_tensor, src=c
"""


def test_tensor_tensor(nisa):
    rng = np.random.default_rng(0)
    a = rng.random([128, 512]).astype(np.float32) * 100
    b = rng.random([128, 512]).astype(np.float32) * 100
    out = nisa.run(NASM, inputs={"a_tensor": a, "b_tensor": b}, outputs=["c_tensor"])
    # np.allclose's defaults, as the NKI test; float32 addition is exact here anyway
    nisa.close("c_tensor", out["c_tensor"], np.add(a, b), rtol=1e-5, atol=1e-8)


if __name__ == "__main__":
    main(globals())
