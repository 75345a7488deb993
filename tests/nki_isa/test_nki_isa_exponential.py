#!/usr/bin/python3
"""nki.isa.exponential (NeuronCore-v4+) has no public NKI 0.6 unit test; this one
follows its docstring's Behavior block (S4.26, docs/SEMANTICS.md):
dst[i] = exp(src[i] - max_value); accumulator = 0 (reset_reduce) or
reduce_init (load_reduce), then += dst[i], continued by reduce; reduce_res
receives it. A softmax's numerator and denominator over two [128, 256] halves.
Expectations in NumPy (exp in float64 rounded to float32, as S5)."""
import numpy as np

from harness import main

NASM = """
.arch trn3
.hbm x f32 [128, 512] input
.hbm y f32 [128, 512] output
.hbm total f32 [128, 1] output
.hbm loaded f32 [128, 1] output
.sbuf t f32 [128, 512]
.sbuf e f32 [128, 512]
.sbuf mx f32 [128, 1]
.sbuf s f32 [128, 1]
.sbuf l f32 [128, 1]
dma_copy dst=t, src=x
tensor_reduce dst=mx, data=t, op=max
exponential dst=e[:, 0:256], src=t[:, 0:256], max_value=mx, reduce_cmd=reset_reduce
exponential dst=e[:, 256:512], src=t[:, 256:512], max_value=mx, reduce_cmd=reduce, reduce_res=s
exponential dst=e[:, 0:256], src=t[:, 0:256], max_value=mx, reduce_cmd=load_reduce, reduce_init=10.0, reduce_res=l
dma_copy dst=y, src=e
dma_copy dst=total, src=s
dma_copy dst=loaded, src=l
"""


def test_exponential(nisa):
    rng = np.random.default_rng(11)
    x = rng.standard_normal([128, 512]).astype(np.float32) * 3
    out = nisa.run(NASM, inputs={"x": x}, args=["--strict"])
    max_value = x.max(axis=1, keepdims=True)
    dst = np.exp((x - max_value).astype(np.float64)).astype(np.float32)
    nisa.close("y", out["y"], dst, rtol=1e-6)
    nisa.close("total", out["total"], dst.sum(axis=1, keepdims=True), rtol=1e-5)
    nisa.close("loaded", out["loaded"], 10 + dst[:, :256].sum(axis=1, keepdims=True), rtol=1e-5)


def test_idle_leaves_lanes_undefined(nisa):
    """reduce_cmd=idle (the default): "accumulator state unknown"; a later reduce_res read faults under --strict."""
    nasm = """
.arch trn3
.hbm x f32 [4, 8] input
.sbuf t f32 [4, 8]
.sbuf s f32 [4, 1]
dma_copy dst=t, src=x
exponential dst=t, src=t, reduce_cmd=reset_reduce
exponential dst=t, src=t
exponential dst=t, src=t, reduce_cmd=reduce, reduce_res=s
"""
    err = nisa.run(nasm, inputs={"x": np.zeros((4, 8), np.float32)}, args=["--strict"], expect_status=3)
    assert ":9:" in err and "accumulator lane" in err, err


if __name__ == "__main__":
    main(globals())
