#!/usr/bin/python3
"""NKI 0.6 nki/test/test_nki_isa_nc_transpose.py, re-expressed (docs/SEMANTICS.md
S8.4): a [128, 64] float32 tile transposed on the Tensor Engine (engine left
to the default) into PSUM, and a [32, 2] tile on the Vector Engine.
Goldens (the test's own): np.allclose(aT, np.transpose(a)),
np.allclose(bT, np.transpose(b)); a transpose copies bits, so they are equal."""
import numpy as np

from harness import main

NASM = """
.hbm a_tensor f32 [128, 64] input
.hbm b_tensor f32 [32, 2] input
.hbm at_tensor f32 [64, 128] output
.hbm bt_tensor f32 [2, 32] output
.sbuf a f32 [128, 64]
.psum aT f32 [64, 128]
.sbuf aT_sb f32 [64, 128]
.sbuf b f32 [32, 2]
.sbuf bT f32 [2, 32]
dma_copy dst=a, src=a_tensor
nc_transpose dst=aT, data=a
tensor_copy dst=aT_sb, src=aT
dma_copy dst=at_tensor, src=aT_sb
dma_copy dst=b, src=b_tensor
nc_transpose dst=bT, data=b, engine=vector
dma_copy dst=bt_tensor, src=bT
"""


def test_nc_transpose(nisa):
    np.random.seed(0)
    a = np.random.random_sample([128, 64]).astype(np.float32) * 100
    b = np.random.random_sample([32, 2]).astype(np.float32) * 100
    out = nisa.run(NASM, inputs={"a_tensor": a, "b_tensor": b}, outputs=["at_tensor", "bt_tensor"])
    nisa.close("at_tensor", out["at_tensor"], np.transpose(a), rtol=1e-5, atol=1e-8)
    nisa.close("bt_tensor", out["bt_tensor"], np.transpose(b), rtol=1e-5, atol=1e-8)
    np.testing.assert_array_equal(out["at_tensor"], np.transpose(a))  # bit-exact (S8.4)


if __name__ == "__main__":
    main(globals())
