#!/usr/bin/python3
"""nki.isa.activation_reduce has no public NKI 0.6 unit test; this one follows
its docstring (S4.25, docs/SEMANTICS.md): output = op(data * scale + bias);
reduce_res = reduce_op(output, axis=<FreeAxis>), the Scalar registers reset
first. Expectations: the docstring's formula in NumPy (exp in float64, rounded
to float32, as S5)."""
import numpy as np

from harness import main

NASM = """
.hbm x f32 [128, 4, 32] input
.hbm y f32 [128, 4, 32] output
.hbm sums f32 [128, 1] output
.hbm maxes f32 [128, 1] output
.sbuf t f32 [128, 4, 32]
.sbuf u f32 [128, 4, 32]
.sbuf s f32 [128, 1]
.sbuf m f32 [128, 1]
.sbuf b f32 [128, 1]
dma_copy dst=t, src=x
memset dst=b, value=-0.25
activation dst=u, op=exp, data=t, reduce_op=add, reduce_res=s, reduce_cmd=reset_reduce
activation dst=u, op=exp, data=t, reduce_op=add, reduce_cmd=reduce
activation_reduce dst=u, op=exp, data=t, reduce_op=add, reduce_res=s, bias=b, scale=0.5
activation_reduce dst=t, op=relu, data=t, reduce_op=max, reduce_res=m
dma_copy dst=y, src=u
dma_copy dst=sums, src=s
dma_copy dst=maxes, src=m
"""


def test_activation_reduce(nisa):
    rng = np.random.default_rng(7)
    x = rng.uniform(-2, 2, [128, 4, 32]).astype(np.float32)
    out = nisa.run(NASM, inputs={"x": x})
    pre = (x * np.float32(0.5)).astype(np.float32) + np.float32(-0.25)
    output = np.exp(pre.astype(np.float64)).astype(np.float32)
    nisa.close("y", out["y"], output, rtol=1e-6)
    # the registers were reset: the earlier activation's sums do not carry over
    nisa.close("sums", out["sums"], output.reshape(128, -1).sum(axis=1, keepdims=True), rtol=1e-5)
    nisa.equal("maxes", out["maxes"], np.maximum(x, 0).reshape(128, -1).max(axis=1, keepdims=True))


if __name__ == "__main__":
    main(globals())
