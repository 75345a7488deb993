#!/usr/bin/python3
"""NKI 0.6 nki/test/test_nki_isa_tensor_tensor_scan.py, re-expressed: scan two
[128, 1024] float32 tiles with op0=multiply, op1=add in two halves, the second
starting from the first's last column (S4.20, docs/SEMANTICS.md).
Golden (the test's own): golden[:, 0] = a[:, 0] * 0 + b[:, 0];
golden[:, i] = a[:, i] * golden[:, i - 1] + b[:, i]; np.allclose."""
import numpy as np

from harness import main

NASM = """
.hbm a_tensor f32 [128, 1024] input
.hbm b_tensor f32 [128, 1024] input
.hbm c_tensor f32 [128, 1024] output
.sbuf a f32 [128, 1024]
.sbuf b f32 [128, 1024]
.sbuf c f32 [128, 1024]
dma_copy dst=a, src=a_tensor
dma_copy dst=b, src=b_tensor
tensor_tensor_scan dst=c[:, 0:512], data0=a[:, 0:512], data1=b[:, 0:512], initial=0, op0=multiply, op1=add
tensor_tensor_scan dst=c[:, 512:1024], data0=a[:, 512:1024], data1=b[:, 512:1024], initial=c[:, 511:512], op0=multiply, op1=add
dma_copy dst=c_tensor, src=c
"""


def golden_scan(a, b):
    golden = np.zeros(a.shape)
    golden[:, 0] = a[:, 0] * 0 + b[:, 0]
    for i in range(1, a.shape[1]):
        golden[:, i] = a[:, i] * golden[:, i - 1] + b[:, i]
    return golden


def test_tensor_tensor_scan(nisa):
    rng = np.random.default_rng(0)
    a = rng.random([128, 1024]).astype(np.float32)
    b = rng.random([128, 1024]).astype(np.float32)
    out = nisa.run(NASM, inputs={"a_tensor": a, "b_tensor": b}, outputs=["c_tensor"])
    # np.allclose's defaults, as the NKI test (the golden runs in float64)
    nisa.close("c_tensor", out["c_tensor"], golden_scan(a, b), rtol=1e-5, atol=1e-8)


REVERSED = """
.hbm x f32 [4, 6] input
.hbm y f32 [4, 6] input
.hbm r f32 [4, 6] output
.hbm s f32 [4, 6] output
.sbuf tx f32 [4, 6]
.sbuf ty f32 [4, 6]
.sbuf init f32 [4, 1]
.sbuf tr f32 [4, 6]
.sbuf ts f32 [4, 6]
dma_copy dst=tx, src=x
dma_copy dst=ty, src=y
memset dst=init, value=10
tensor_tensor_scan dst=tr, data0=tx, data1=ty, initial=init, op0=subtract, op1=subtract, reverse0=true, reverse1=true
tensor_tensor_scan dst=ts, data0=tx, data1=ty, initial=-1, op0=maximum, op1=multiply
dma_copy dst=r, src=tr
dma_copy dst=s, src=ts
"""


def test_reverse_and_column_initial(nisa):
    """The docstring's loop with reverse0/reverse1 (data0 the rhs of op0, data1 the lhs of op1)."""
    rng = np.random.default_rng(1)
    x = rng.integers(-5, 6, [4, 6]).astype(np.float32)
    y = rng.integers(-5, 6, [4, 6]).astype(np.float32)
    out = nisa.run(REVERSED, inputs={"x": x, "y": y}, outputs=["r", "s"])
    r = np.zeros_like(x)
    s = np.zeros_like(x)
    prev_r = np.full(4, 10.0, np.float32)
    prev_s = np.full(4, -1.0, np.float32)
    for i in range(6):
        prev_r = y[:, i] - (prev_r - x[:, i])
        prev_s = np.maximum(x[:, i], prev_s) * y[:, i]
        r[:, i], s[:, i] = prev_r, prev_s
    nisa.equal("r", out["r"], r)  # small integers: exact
    nisa.equal("s", out["s"], s)


if __name__ == "__main__":
    main(globals())
