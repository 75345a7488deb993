#!/usr/bin/python3
"""NKI 0.6 nki/test/test_nki_isa_reduce.py, re-expressed: tensor_reduce add
over axis 1 of a [128, 512] tile. Golden (the test's own):
np.allclose(b, np.sum(a, axis=1, keepdims=True)); nisa adds left to right
in float32 (S3), within np.allclose's rtol 1e-5 of NumPy's pairwise sum."""
import numpy as np

from harness import main

NASM = """
.hbm a_tensor f32 [128, 512] input
.hbm b_tensor f32 [128, 1] output
.sbuf a f32 [128, 512]
.sbuf b f32 [128, 1]
dma_copy dst=a, src=a_tensor
tensor_reduce dst=b, op=add, data=a, axis=[1]
dma_copy dst=b_tensor, src=b
"""


def test_reduce(nisa):
    np.random.seed(0)
    a = np.random.random_sample([128, 512]).astype(np.float32) * 100
    out = nisa.run(NASM, inputs={"a_tensor": a})
    nisa.close("b_tensor", out["b_tensor"], np.sum(a, axis=1, keepdims=True), rtol=1e-5, atol=1e-8)


if __name__ == "__main__":
    main(globals())
