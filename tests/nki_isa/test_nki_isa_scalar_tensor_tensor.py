#!/usr/bin/python3
"""nki.isa.scalar_tensor_tensor has no public NKI 0.6 unit test; this one follows
its docstring (S4.23, docs/SEMANTICS.md): dst = (data op0 operand0) op1 operand1,
operand0 a scalar or [P, 1] tile, operand1 a tile of data's shape, reverse0 /
reverse1 swapping a stage's inputs. Expectations: the docstring's two-step
formula in NumPy float32."""
import numpy as np

from harness import main

NASM = """
.hbm data f32 [128, 256] input
.hbm col f32 [128, 1] input
.hbm other f32 [128, 256] input
.hbm out0 f32 [128, 256] output
.hbm out1 f32 [128, 256] output
.sbuf d f32 [128, 256]
.sbuf c f32 [128, 1]
.psum o f32 [128, 256]
.sbuf r0 f32 [128, 256]
.sbuf r1 f32 [128, 256]
dma_copy dst=d, src=data
dma_copy dst=c, src=col
dma_copy dst=r1, src=other
tensor_scalar dst=o, data=r1, op0=add, operand0=0.0
scalar_tensor_tensor dst=r0, data=d, op0=multiply, operand0=c, op1=add, operand1=o
scalar_tensor_tensor dst=r1, data=d, op0=subtract, operand0=1.5, op1=subtract, operand1=o, reverse0=true, reverse1=true
dma_copy dst=out0, src=r0
dma_copy dst=out1, src=r1
"""


def test_scalar_tensor_tensor(nisa):
    rng = np.random.default_rng(0)
    data = rng.standard_normal([128, 256]).astype(np.float32)
    col = rng.standard_normal([128, 1]).astype(np.float32)
    other = rng.standard_normal([128, 256]).astype(np.float32)
    out = nisa.run(NASM, inputs={"data": data, "col": col, "other": other}, outputs=["out0", "out1"])
    # temp = tensor_scalar(data, op0, operand0); dst = tensor_tensor(temp, op1, operand1)
    nisa.equal("out0", out["out0"], (data * col).astype(np.float32) + other)
    # reverse0: operand0 is op0's lhs; reverse1: operand1 is op1's lhs
    nisa.equal("out1", out["out1"], other - (np.float32(1.5) - data))


if __name__ == "__main__":
    main(globals())
