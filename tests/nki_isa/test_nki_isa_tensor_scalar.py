#!/usr/bin/python3
"""NKI 0.6 nki/test/test_nki_isa_tensor_scalar.py, re-expressed: a - 1.0;
1.0 - c (reverse0); e * f + 2.5 with f a [64, 1] per-partition operand.
Golden (the test's own): a-1, 1-c, e*f + 2.5 (np.allclose)."""
import numpy as np

from harness import main

NASM = """
.hbm a_tensor f32 [128, 512] input
.hbm c_tensor f32 [128, 512] input
.hbm e_tensor f32 [64, 1024] input
.hbm f_tensor f32 [64, 1] input
.hbm b_tensor f32 [128, 512] output
.hbm d_tensor f32 [128, 512] output
.hbm g_tensor f32 [64, 1024] output
.sbuf a f32 [128, 512]
.sbuf b f32 [128, 512]
.sbuf c f32 [128, 512]
.sbuf d f32 [128, 512]
.sbuf e f32 [64, 1024]
.sbuf f f32 [64, 1]
.sbuf g f32 [64, 1024]
dma_copy dst=a, src=a_tensor
tensor_scalar dst=b, data=a, op0=subtract, operand0=1.0
dma_copy dst=b_tensor, src=b
dma_copy dst=c, src=c_tensor
tensor_scalar dst=d, data=c, op0=subtract, operand0=1.0, reverse0=true
dma_copy dst=d_tensor, src=d
dma_copy dst=e, src=e_tensor
dma_copy dst=f, src=f_tensor
tensor_scalar dst=g, data=e, op0=multiply, operand0=f, op1=add, operand1=2.5
dma_copy dst=g_tensor, src=g
"""


def test_tensor_scalar(nisa):
    np.random.seed(0)
    a = np.random.random_sample([128, 512]).astype(np.float32) * 100
    c = np.random.random_sample([128, 512]).astype(np.float32) * 100
    e = np.random.random_sample([64, 1024]).astype(np.float32) * 100
    f = np.random.random_sample([64, 1]).astype(np.float32) * 100
    out = nisa.run(NASM, inputs={"a_tensor": a, "c_tensor": c, "e_tensor": e, "f_tensor": f})
    nisa.close("b", out["b_tensor"], a - 1, rtol=1e-5, atol=1e-8)
    nisa.close("d", out["d_tensor"], 1 - c, rtol=1e-5, atol=1e-8)
    nisa.close("g", out["g_tensor"], e * f + 2.5, rtol=1e-5, atol=1e-8)


if __name__ == "__main__":
    main(globals())
