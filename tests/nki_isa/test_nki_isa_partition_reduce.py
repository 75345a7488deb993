#!/usr/bin/python3
"""NKI 0.6 nki/test/test_nki_isa_partition_reduce.py, re-expressed: add-reduce a
(128, 32, 4) float32 tile across its partitions into (1, 32, 4), and the
batched form, (4, 128, 32, 8) reduced per batch into (4, 1, 32, 8) with an
nl.affine_range loop (here .rept) (S4.28, docs/SEMANTICS.md).
Golden (the test's own): np.sum(a, axis=0 or 1, keepdims=True); np.allclose."""
import numpy as np

from harness import main

ND = """
.hbm a_tensor f32 [128, 32, 4] input
.hbm b_tensor f32 [1, 32, 4] output
.sbuf a f32 [128, 32, 4]
.sbuf b f32 [1, 32, 4]
dma_copy dst=a, src=a_tensor
tensor_partition_reduce dst=b, op=add, data=a
dma_copy dst=b_tensor, src=b
"""

ND_B = """
.hbm a_tensor f32 [4, 128, 32, 8] input
.hbm b_tensor f32 [4, 1, 32, 8] output
.sbuf a f32 [128, 32, 8]
.sbuf b f32 [1, 32, 8]
.rept i, 4
dma_copy dst=a, src=a_tensor.ap(pattern=[[256, 128], [1, 256]], offset=i * 128 * 256)
tensor_partition_reduce dst=b, op=add, data=a
dma_copy dst=b_tensor.ap(pattern=[[256, 1], [1, 256]], offset=i * 256), src=b
.endr
"""


def test_par_reduce_nd(nisa):
    a = (np.random.default_rng(0).random([128, 32, 4]) * 100).astype(np.float32)
    out = nisa.run(ND, inputs={"a_tensor": a}, outputs=["b_tensor"])
    nisa.close("b_tensor", out["b_tensor"], np.sum(a, axis=0, keepdims=True), rtol=1e-5, atol=1e-8)


def test_par_reduce_nd_b(nisa):
    a = (np.random.default_rng(1).random([4, 128, 32, 8]) * 100).astype(np.float32)
    out = nisa.run(ND_B, inputs={"a_tensor": a}, outputs=["b_tensor"])
    nisa.close("b_tensor", out["b_tensor"], np.sum(a, axis=1, keepdims=True), rtol=1e-5, atol=1e-8)


OTHERS = """
.hbm x f32 [16, 8] input
.hbm k i32 [16, 8] input
.hbm mx f32 [1, 8] output
.hbm avg f32 [1, 8] output
.hbm ors i32 [1, 8] output
.hbm ands i32 [1, 8] output
.sbuf t f32 [16, 8]
.sbuf ti i32 [16, 8]
.sbuf r f32 [33, 8]
.sbuf ri i32 [33, 8]
dma_copy dst=t, src=x
dma_copy dst=ti, src=k
tensor_partition_reduce dst=r[0:1, :], op=max, data=t
tensor_partition_reduce dst=r[32:33, :], op=average, data=t
tensor_partition_reduce dst=ri[0:1, :], op=bitwise_or, data=ti
tensor_partition_reduce dst=ri[32:33, :], op=bitwise_and, data=ti
dma_copy dst=mx, src=r[0:1, :]
dma_copy dst=avg, src=r[32:33, :]
dma_copy dst=ors, src=ri[0:1, :]
dma_copy dst=ands, src=ri[32:33, :]
"""


def test_other_operators(nisa):
    """Beyond the NKI test: the docstring's other operators (max, average, bitwise_or/and)."""
    rng = np.random.default_rng(2)
    x = rng.integers(-50, 50, [16, 8]).astype(np.float32)  # small integers: sums exact
    k = rng.integers(-2 ** 31, 2 ** 31, [16, 8], dtype=np.int64).astype(np.int32)
    out = nisa.run(OTHERS, inputs={"x": x, "k": k})
    nisa.equal("mx", out["mx"], x.max(axis=0, keepdims=True))
    nisa.equal("avg", out["avg"], (x.sum(axis=0, keepdims=True) / np.float32(16)).astype(np.float32))
    nisa.equal("ors", out["ors"], np.bitwise_or.reduce(k, axis=0, keepdims=True))
    nisa.equal("ands", out["ands"], np.bitwise_and.reduce(k, axis=0, keepdims=True))


if __name__ == "__main__":
    main(globals())
