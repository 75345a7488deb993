#!/usr/bin/python3
"""nki.isa.tensor_scalar_reduce has no public NKI 0.6 unit test; this one follows
its docstring (S4.24, docs/SEMANTICS.md): result = data op0 operand0;
reduce_res = reduce_op(result, axis=<free axes>), through the Vector
accumulator: reset_reduce (the identity: 0 add, 1 multiply, -inf max, +inf
min), reduce (continue), load_reduce (start from reduce_init);
reduce_res_negate negates reduce_res only. Expectations in NumPy float32."""
import numpy as np

from harness import main

NASM = """
.hbm x f32 [64, 2, 48] input
.hbm y f32 [64, 2, 48] output
.hbm sums f32 [64, 1] output
.hbm chained f32 [64, 1] output
.hbm maxes f32 [64, 1] output
.hbm products f32 [64, 1] output
.sbuf t f32 [64, 2, 48]
.sbuf u f32 [64, 2, 48]
.sbuf init f32 [64, 1]
.sbuf s f32 [64, 1]
.sbuf c f32 [64, 1]
.sbuf m f32 [64, 1]
.sbuf p f32 [64, 1]
dma_copy dst=t, src=x
iota dst=init, pattern=[[0, 1]], channel_multiplier=1
tensor_scalar_reduce dst=u, data=t, op0=multiply, operand0=2.0, reduce_op=add, reduce_res=s
tensor_scalar_reduce dst=u, data=t, op0=multiply, operand0=2.0, reduce_op=add, reduce_cmd=load_reduce, reduce_init=init
tensor_scalar_reduce dst=u, data=t, op0=multiply, operand0=2.0, reduce_op=add, reduce_cmd=reduce, reduce_res=c, reduce_res_negate=true
tensor_scalar_reduce dst=u, data=t, op0=subtract, operand0=1.0, reduce_op=max, reduce_res=m, reverse0=true
tensor_scalar_reduce dst=u, data=t, op0=add, operand0=0.5, reduce_op=multiply, reduce_res=p
dma_copy dst=y, src=u
dma_copy dst=sums, src=s
dma_copy dst=chained, src=c
dma_copy dst=maxes, src=m
dma_copy dst=products, src=p
"""


def test_tensor_scalar_reduce(nisa):
    rng = np.random.default_rng(3)
    x = rng.uniform(0.5, 1.5, [64, 2, 48]).astype(np.float32)
    out = nisa.run(NASM, inputs={"x": x})
    flat = x.reshape(64, -1)
    doubled = flat * np.float32(2)
    nisa.close("sums", out["sums"], doubled.sum(axis=1, keepdims=True), rtol=1e-5)
    init = np.arange(64, dtype=np.float32).reshape(64, 1)
    nisa.close("chained", out["chained"], -(init + 2 * doubled.sum(axis=1, keepdims=True)), rtol=1e-5)
    nisa.equal("maxes", out["maxes"], (np.float32(1) - flat).max(axis=1, keepdims=True))
    nisa.close("products", out["products"], np.prod(flat + np.float32(0.5), axis=1, keepdims=True), rtol=1e-4)
    nisa.equal("y", out["y"], x + np.float32(0.5))


if __name__ == "__main__":
    main(globals())
