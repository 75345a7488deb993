#!/usr/bin/python3
"""NKI 0.6 nki/test/test_nki_isa_activation.py, re-expressed (S4.6, S5):
example 1 exp of a [128, 1024] tile; example 2 square(b * 2.0 + c) with a
[128, 1] bias tile, written as bfloat16. Golden (the test's own):
np.allclose(a_act, np.exp(a)) and np.allclose(b_act, np.square(b*2+c))."""
import numpy as np

from harness import main

NASM = """
.hbm a_tensor f32 [128, 1024] input
.hbm b_tensor f32 [128, 512] input
.hbm c_tensor f32 [128, 1] input
.hbm a_act_tensor f32 [128, 1024] output
.hbm b_act_tensor bf16 [128, 512] output
.sbuf a f32 [128, 1024]
.sbuf b f32 [128, 512]
.sbuf c f32 [128, 1]
.sbuf activated_a f32 [128, 1024]
.sbuf activated_b bf16 [128, 512]
dma_copy dst=a, src=a_tensor
activation dst=activated_a, op=exp, data=a
dma_copy dst=a_act_tensor, src=activated_a
dma_copy dst=b, src=b_tensor
dma_copy dst=c, src=c_tensor
activation dst=activated_b, op=square, data=b, bias=c, scale=2.0
dma_copy dst=b_act_tensor, src=activated_b
"""


def test_activation(nisa):
    np.random.seed(0)
    a = np.random.random_sample([128, 1024]).astype(np.float32) * 100
    b = np.random.random_sample([128, 512]).astype(np.float32) * 100
    c = np.random.random_sample([128, 1]).astype(np.float32) * 100
    out = nisa.run(NASM, inputs={"a_tensor": a, "b_tensor": b, "c_tensor": c})
    with np.errstate(over="ignore"):
        a_golden = np.exp(a)  # inf beyond float32's range, as the test's own golden
    nisa.close("a_act", out["a_act_tensor"], a_golden, rtol=1e-5, atol=1e-8)
    # np.allclose's rtol 1e-5 against a bf16 result: the test compares the
    # bf16 output with a float32 golden, which passes only within bf16's
    # rounding (2^-8); NKI's simulator output is bf16 too.
    nisa.close("b_act", out["b_act_tensor"], np.square(b * 2 + c), rtol=2.0 ** -8, atol=1e-8)


if __name__ == "__main__":
    main(globals())
