#!/usr/bin/python3
"""NKI 0.6 nki/test/test_nki_isa_tensor_scalar_cumulative.py, re-expressed:
every case of the test on its [128, 64] tile of ones (S4.22,
docs/SEMANTICS.md), scalar and [128, 1] immediates, reset_reduce,
load_reduce, and chains continuing with reduce_cmd=reduce.
Golden (the test's own, per case): np.add/np.multiply/np.maximum.accumulate of
src (+ imm0), plus imm1 or the first call's final value where the case says; np.allclose."""
import numpy as np

from harness import main

SRC = np.ones((128, 64), dtype=np.float32)


def kernel(calls, imm0_tile=False, imm1_tile=False):
    """One or two tensor_scalar_cumulative calls on src -> dst (the test's kernels)."""
    decls = [".hbm src_data f32 [128, 64] input", ".hbm result f32 [128, 64] output",
             ".sbuf src f32 [128, 64]", ".sbuf dst f32 [128, 64]"]
    body = ["dma_copy dst=src, src=src_data"]
    if imm0_tile:
        decls += [".hbm imm0_data f32 [128, 1] input", ".sbuf imm0 f32 [128, 1]"]
        body.append("dma_copy dst=imm0, src=imm0_data")
    if imm1_tile:
        decls += [".hbm imm1_data f32 [128, 1] input", ".sbuf imm1 f32 [128, 1]"]
        body.append("dma_copy dst=imm1, src=imm1_data")
    body += [f"tensor_scalar_cumulative dst=dst, src=src, {call}" for call in calls]
    body.append("dma_copy dst=result, src=dst")
    return "\n".join(decls + body) + "\n"


def run(nisa, calls, imm0=None, imm1=None):
    inputs = {"src_data": SRC}
    if imm0 is not None:
        inputs["imm0_data"] = imm0
    if imm1 is not None:
        inputs["imm1_data"] = imm1
    nasm = kernel(calls, imm0 is not None, imm1 is not None)
    return nisa.run(nasm, inputs=inputs, outputs=["result"])["result"]


def allclose(nisa, result, golden):
    nisa.close("result", result, np.broadcast_to(golden, result.shape), rtol=1e-5, atol=1e-8)


def test_tensor_scalar_cumulative_scalar1(nisa):
    result = run(nisa, ["op0=add, op1=add, imm0=0.0"])
    allclose(nisa, result, np.add.accumulate(SRC, axis=-1))


def test_tensor_scalar_cumulative_scalar2(nisa):
    result = run(nisa, ["op0=add, op1=multiply, imm0=0.0"])
    allclose(nisa, result, np.multiply.accumulate(SRC, axis=-1))


def test_tensor_scalar_cumulative_vector1(nisa):
    imm0 = np.ones((128, 1), dtype=np.float32)
    result = run(nisa, ["op0=add, op1=add, imm0=imm0"], imm0=imm0)
    allclose(nisa, result, np.add.accumulate(np.add(SRC, imm0), axis=-1))


def test_tensor_scalar_cumulative_vector2(nisa):
    imm0 = np.ones((128, 1), dtype=np.float32)
    result = run(nisa, ["op0=add, op1=multiply, imm0=imm0"], imm0=imm0)
    allclose(nisa, result, np.multiply.accumulate(np.add(SRC, imm0), axis=-1))


def test_tensor_scalar_cumulative_vector3(nisa):
    imm0 = np.ones((128, 1), dtype=np.float32)
    result = run(nisa, ["op0=add, op1=max, imm0=imm0"], imm0=imm0)
    allclose(nisa, result, np.maximum.accumulate(np.add(SRC, imm0), axis=-1))


def test_tensor_scalar_cumulative_load_reduce1(nisa):
    imm0 = np.ones((128, 1), dtype=np.float32)
    imm1 = np.ones((128, 1), dtype=np.float32)
    result = run(nisa, ["op0=add, op1=add, imm0=imm0, imm1=imm1, reduce_cmd=load_reduce"], imm0=imm0, imm1=imm1)
    allclose(nisa, result, np.add(np.add.accumulate(np.add(SRC, imm0), axis=-1), imm1))


def test_tensor_scalar_cumulative_load_reduce2(nisa):
    imm0 = np.ones((128, 1), dtype=np.float32)
    imm1 = np.zeros((128, 1), dtype=np.float32)
    result = run(nisa, ["op0=add, op1=multiply, imm0=imm0, imm1=imm1, reduce_cmd=load_reduce"], imm0=imm0, imm1=imm1)
    allclose(nisa, result, np.zeros((128, 64), dtype=np.float32))


def test_tensor_scalar_cumulative_load_reduce3(nisa):
    imm0 = np.ones((128, 1), dtype=np.float32)
    imm1 = np.zeros((128, 1), dtype=np.float32)
    result = run(nisa, ["op0=add, op1=min, imm0=imm0, imm1=imm1, reduce_cmd=load_reduce"], imm0=imm0, imm1=imm1)
    allclose(nisa, result, np.zeros((128, 1), dtype=np.float32))


def test_tensor_scalar_cumulative_chain1(nisa):
    result = run(nisa, ["op0=add, op1=add, imm0=0.0, reduce_cmd=reset_reduce",
                        "op0=add, op1=add, imm0=0.0, reduce_cmd=reduce"])
    allclose(nisa, result, np.add(np.add.accumulate(SRC, axis=-1), 64))


def test_tensor_scalar_cumulative_chain2(nisa):
    result = run(nisa, ["op0=add, op1=add, imm0=0.0, imm1=1.0, reduce_cmd=load_reduce",
                        "op0=add, op1=add, imm0=0.0, imm1=1.0, reduce_cmd=reduce"])
    allclose(nisa, result, np.add(np.add.accumulate(SRC, axis=-1), 65))


def test_tensor_scan(nisa):
    result = run(nisa, ["op0=add, op1=add, imm0=0.0, imm1=2.0, reduce_cmd=load_reduce"])
    allclose(nisa, result, np.add(np.add.accumulate(SRC, axis=-1), np.float32(2.0)))


def test_subtract_order_and_strict_reduce(nisa):
    """Beyond the NKI test: op1's inputs in the docstring's order (reg = op1(stage, reg)), and
    reduce_cmd=reduce on lanes never reset is a --strict fault (S3)."""
    x = np.arange(1, 7, dtype=np.float32).reshape(1, 6)
    nasm = """
.hbm x f32 [1, 6] input
.hbm y f32 [1, 6] output
.sbuf t f32 [1, 6]
dma_copy dst=t, src=x
tensor_scalar_cumulative dst=t, src=t, op0=multiply, op1=subtract, imm0=2.0
dma_copy dst=y, src=t
"""
    reg, expected = np.float32(0), []
    for v in x[0]:
        reg = v * 2 - reg
        expected.append(reg)
    nisa.equal("y", nisa.run(nasm, inputs={"x": x}, outputs=["y"])["y"], np.array([expected], np.float32))
    err = nisa.run(nasm.replace("imm0=2.0", "imm0=2.0, reduce_cmd=reduce"), inputs={"x": x}, args=["--strict"],
                   expect_status=3)
    assert "accumulator lane 0" in err, err


if __name__ == "__main__":
    main(globals())
