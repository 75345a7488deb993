#!/usr/bin/python3
"""tensor_tensor, tensor_scalar, activation, activate2, exponential,
tensor_scalar_reduce, tensor_scalar_cumulative, tensor_copy_predicated and
tensor_reduce with .indirect() views (Tensor Indirection,
NeuronCore-v4), written as `.ap(pattern=[[E, P], [s, N]], offset=K,
indirect=IDX)`. The docstrings' "Tensor indirection" paragraphs: tensor_tensor's
dst and data1 may be indirect (data2 may not), tensor_scalar's, activation's,
activate2's and tensor_scalar_reduce's dst and data, exponential's and
tensor_scalar_cumulative's dst and src, tensor_copy_predicated's dst and
predicate (src may not), tensor_reduce's dst and data;
column i of a view sits index[i % 16, i // 16] free steps into its row
(NkiTensor.indirect, G = 16 on the Vector engine; S1.7 for the later
partition groups). Golden values are NumPy fancy indexing and arithmetic
written here, never nisa's output."""
import numpy as np

from harness import main, round_to

TT_GATHER = """
.arch trn3
.hbm a  f32 [32, 64] input
.hbm c  f32 [32, {n}] input
.hbm ix i32 [32, {k}] input
.hbm b  {out} [32, {n}] output
.sbuf at f32 [32, 64]
.sbuf ct f32 [32, {n}]
.sbuf it i32 [32, {k}]
.sbuf bt {out} [32, {n}]
dma_copy dst=at, src=a
dma_copy dst=ct, src=c
dma_copy dst=it, src=ix
tensor_tensor dst=bt, data1=at.ap(pattern=[[64, 32], [{step}, {n}]], offset={first}, indirect=it), data2=ct, op={op}
dma_copy dst=b, src=bt
"""


def tt_gather(nisa, n, k=1, step=1, first=0, op="subtract", out="f32", seed=0):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((32, 64)).astype(np.float32)
    c = rng.standard_normal((32, n)).astype(np.float32)
    ix = rng.integers(0, (64 - first + step - 1) // step, size=(32, k)).astype(np.int32)
    nasm = TT_GATHER.format(n=n, k=k, step=step, first=first, op=op, out=out)
    return a, c, ix, nisa.run(nasm, inputs={"a": a, "c": c, "ix": ix}, args=["--strict"])["b"]


def test_tensor_tensor_gathers_data1(nisa):
    # k = 1: column i of data1 is a[:, ix[i, 0]]
    a, c, ix, b = tt_gather(nisa, 32)
    nisa.equal("b", b, a[:, ix[:, 0]] - c)


def test_tensor_tensor_snake_order_step_and_offset(nisa):
    # k = 2, 64 columns: the first group's two index columns, then the second
    # group's (S1.7); free step 2 from element 3
    a, c, ix, b = tt_gather(nisa, 64, k=2, step=2, first=3, op="multiply", seed=1)
    cols = [ix[i % 16, 0] for i in range(16)] + [ix[i % 16, 1] for i in range(16)]
    cols += [ix[16 + i % 16, 0] for i in range(16)] + [ix[16 + i % 16, 1] for i in range(16)]
    nisa.equal("b", b, a[:, 3 + 2 * np.array(cols)] * c)


def test_tensor_tensor_result_converted_to_dst(nisa):
    a, c, ix, b = tt_gather(nisa, 16, op="add", out="bf16", seed=2)
    nisa.equal("b", b, round_to("bf16", a[:, ix[:16, 0]] + c))


TT_SCATTER = """
.arch trn3
.hbm a  f32 [32, 16] input
.hbm c  f32 [32, 16] input
.hbm ix i32 [32, 1] input
.hbm b  f32 [32, 40] output
.sbuf at f32 [32, 16]
.sbuf ct f32 [32, 16]
.sbuf it i32 [32, 1]
.sbuf bt f32 [32, 40]
dma_copy dst=at, src=a
dma_copy dst=ct, src=c
dma_copy dst=it, src=ix
memset dst=bt, value=7
tensor_tensor dst=bt.ap(pattern=[[40, 32], [1, 16]], offset=0, indirect=it), data1=at, data2=ct, op=maximum
dma_copy dst=b, src=bt
"""


def test_tensor_tensor_scatters_dst(nisa):
    rng = np.random.default_rng(3)
    a = rng.standard_normal((32, 16)).astype(np.float32)
    c = rng.standard_normal((32, 16)).astype(np.float32)
    cols = rng.permutation(40)[:32].astype(np.int32)
    b = nisa.run(TT_SCATTER, inputs={"a": a, "c": c, "ix": cols.reshape(32, 1)}, args=["--strict"])["b"]
    expected = np.full((32, 40), 7, dtype=np.float32)
    expected[:, cols[:16]] = np.maximum(a, c)  # 16 columns read index[0..15, 0]
    nisa.equal("b", b, expected)


TS_BOTH = """
.arch trn3
.hbm a  f32 [32, 24] input
.hbm ix i32 [32, 1] input
.hbm b  f32 [32, 24] output
.sbuf at f32 [32, 24]
.sbuf it i32 [32, 1]
.psum pt f32 [32, 24]
.sbuf bt f32 [32, 24]
dma_copy dst=at, src=a
dma_copy dst=it, src=ix
tensor_copy dst=pt, src=at
memset dst=bt, value=0
tensor_scalar dst=bt.ap(pattern=[[24, 32], [1, 12]], offset=0, indirect=it), data=pt.ap(pattern=[[24, 32], [2, 12]], offset=1, indirect=it), op0=multiply, operand0=3.0, op1=add, operand1=0.5
dma_copy dst=b, src=bt
"""


def test_tensor_scalar_gathers_and_scatters(nisa):
    # data in PSUM gathered at 1 + 2 * index, dst scattered at index, one index
    rng = np.random.default_rng(4)
    a = rng.standard_normal((32, 24)).astype(np.float32)
    cols = rng.permutation(12)[:12]
    ix = np.concatenate([cols, cols, cols[:8]]).astype(np.int32).reshape(32, 1)
    b = nisa.run(TS_BOTH, inputs={"a": a, "ix": ix}, args=["--strict"])["b"]
    expected = np.zeros((32, 24), dtype=np.float32)
    expected[:, cols] = a[:, 1 + 2 * cols] * np.float32(3) + np.float32(0.5)
    nisa.equal("b", b, expected)


def test_tensor_scalar_gather_in_place(nisa):
    # dst is the tile data gathers from: every column is read before any is written
    nasm = """
.arch trn3
.hbm a  f32 [32, 8] input
.hbm ix i32 [32, 1] input
.hbm b  f32 [32, 8] output
.sbuf at f32 [32, 8]
.sbuf it i32 [32, 1]
dma_copy dst=at, src=a
dma_copy dst=it, src=ix
tensor_scalar dst=at, data=at.ap(pattern=[[8, 32], [1, 8]], offset=0, indirect=it), op0=add, operand0=1.0
dma_copy dst=b, src=at
"""
    a = np.arange(32 * 8, dtype=np.float32).reshape(32, 8)
    rev = np.array([7 - (i % 16) % 8 for i in range(32)], dtype=np.int32)  # column i of the view: 7 - i
    b = nisa.run(nasm, inputs={"a": a, "ix": rev.reshape(32, 1)})["b"]
    nisa.equal("b", b, a[:, ::-1] + 1)


ONE = """
.arch trn3
.hbm a  f32 [32, 24] input
.hbm ix i32 [32, 1] input
.hbm b  f32 [32, {n}] output
.hbm r  f32 [32, 1] output
.sbuf at f32 [32, 24]
.sbuf it i32 [32, 1]
.sbuf bt f32 [32, {n}]
.sbuf rt f32 [32, 1]
dma_copy dst=at, src=a
dma_copy dst=it, src=ix
memset dst=bt, value=0
memset dst=rt, value=0
{line}
dma_copy dst=b, src=bt
dma_copy dst=r, src=rt
"""
GATHERED = "at.ap(pattern=[[24, 32], [2, 8]], offset=1, indirect=it)"  # columns 1 + 2 * index
SCATTERED = "bt.ap(pattern=[[24, 32], [1, 8]], offset=0, indirect=it)"  # columns index


def one(nisa, line, n, seed, args=()):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((32, 24)).astype(np.float32)
    cols = rng.permutation(12)[:8]
    ix = np.concatenate([cols, cols, cols, cols]).astype(np.int32).reshape(32, 1)
    out = nisa.run(ONE.format(line=line, n=n), inputs={"a": a, "ix": ix}, args=args)
    return a, cols, out["b"], out["r"]


def test_activation_gathers_data(nisa):
    a, cols, b, _ = one(nisa, f"activation dst=bt, op=relu, data={GATHERED}, scale=2.0, bias=-0.25", 8, 5)
    nisa.equal("b", b, np.maximum(a[:, 1 + 2 * cols] * np.float32(2) - np.float32(0.25), 0))


def test_activate2_scatters_dst(nisa):
    a, cols, b, _ = one(nisa, f"activate2 dst={SCATTERED}, op=abs, data=at[:, 0:8], imm0=3.0, imm1=1.0, op0=multiply, op1=subtract", 24, 6,
                        args=["--strict"])
    expected = np.zeros((32, 24), np.float32)
    expected[:, cols] = np.abs(a[:, :8] * np.float32(3) - np.float32(1))
    nisa.equal("b", b, expected)


def test_exponential_gathers_and_sums(nisa):
    a, cols, b, r = one(nisa, f"exponential dst=bt, src={GATHERED}, max_value=1.0, reduce_res=rt, reduce_cmd=reset_reduce", 8, 7)
    e = np.exp(a[:, 1 + 2 * cols].astype(np.float64) - 1)
    nisa.close("b", b, e, rtol=1e-6)
    nisa.close("r", r, e.sum(axis=1, keepdims=True), rtol=1e-5)


def test_tensor_scalar_reduce_gathers_and_takes_the_maximum(nisa):
    line = (f"tensor_scalar_reduce dst=bt, data={GATHERED}, op0=multiply, operand0=-1.0, reduce_op=maximum, "
            "reduce_res=rt, reduce_cmd=reset_reduce")
    a, cols, b, r = one(nisa, line, 8, 8)
    nisa.equal("b", b, -a[:, 1 + 2 * cols])
    nisa.equal("r", r, (-a[:, 1 + 2 * cols]).max(axis=1, keepdims=True))


def test_tensor_scalar_cumulative_runs_along_the_gathered_columns(nisa):
    # the running register walks the view's columns in view order (column i is a[:, 1 + 2 * cols[i]])
    line = f"tensor_scalar_cumulative dst=bt, src={GATHERED}, op0=multiply, op1=add, imm0=2.0, reduce_cmd=reset_reduce"
    a, cols, b, _ = one(nisa, line, 8, 9, args=["--strict"])
    nisa.close("b", b, np.cumsum(a[:, 1 + 2 * cols].astype(np.float64) * 2, axis=1), rtol=1e-6, atol=1e-6)


def test_tensor_scalar_cumulative_scatters_dst(nisa):
    line = f"tensor_scalar_cumulative dst={SCATTERED}, src=at[:, 0:8], op0=add, op1=maximum, imm0=1.0, reduce_cmd=reset_reduce"
    a, cols, b, _ = one(nisa, line, 24, 10, args=["--strict"])
    expected = np.zeros((32, 24), np.float32)
    expected[:, cols] = np.maximum.accumulate(a[:, :8] + np.float32(1), axis=1)
    nisa.equal("b", b, expected)


def test_tensor_reduce_gathers_data(nisa):
    line = f"tensor_reduce dst=rt, op=add, data={GATHERED}, axis=1, negate=true"
    a, cols, _, r = one(nisa, line, 8, 12, args=["--strict"])
    nisa.close("r", r, -a[:, 1 + 2 * cols].astype(np.float64).sum(axis=1, keepdims=True), rtol=1e-6, atol=1e-6)


def test_tensor_reduce_scatters_its_one_column(nisa):
    # dst's one column is column cols[0] of bt (index element [0, 0]); the rest stays 0
    line = "tensor_reduce dst=bt.ap(pattern=[[24, 32], [1, 1]], offset=0, indirect=it), op=maximum, data=at[:, 0:8]"
    a, cols, b, _ = one(nisa, line, 24, 13, args=["--strict"])
    expected = np.zeros((32, 24), np.float32)
    expected[:, cols[0]] = a[:, :8].max(axis=1)
    nisa.equal("b", b, expected)


REDUCE_AXIS = """
.arch trn3
.hbm a  f32 [32, 4, 3] input
.hbm ix i32 [32, 1] input
.hbm b  f32 [32, 10] output
.sbuf at f32 [32, 4, 3]
.sbuf it i32 [32, 1]
.sbuf bt f32 [32, 10]
dma_copy dst=at, src=a
dma_copy dst=it, src=ix
memset dst=bt, value=0
tensor_reduce dst=bt.ap(pattern=[[10, 32], [1, 4]], offset=0, indirect=it), op=add, data=at, axis=2
dma_copy dst=b, src=bt
"""


def test_tensor_reduce_with_axis_scatters_each_result(nisa):
    # data [32, 4, 3] summed over its last axis: result j lands in column ix[j, 0]
    rng = np.random.default_rng(14)
    a = rng.integers(-50, 50, size=(32, 4, 3)).astype(np.float32)  # integer sums: exact in any order
    cols = np.array([7, 2, 9, 0], np.int32)
    ix = np.tile(cols, 8).reshape(32, 1)
    b = nisa.run(REDUCE_AXIS, inputs={"a": a, "ix": ix}, args=["--strict"])["b"]
    expected = np.zeros((32, 10), np.float32)
    expected[:, cols] = a.sum(axis=2)
    nisa.equal("b", b, expected)


PREDICATED = """
.arch trn3
.hbm a  f32 [32, 8] input
.hbm q  u8 [32, 24] input
.hbm ix i32 [32, 1] input
.hbm b  f32 [32, 24] output
.sbuf at f32 [32, 8]
.sbuf qt u8 [32, 24]
.sbuf it i32 [32, 1]
.sbuf bt f32 [32, 24]
dma_copy dst=at, src=a
dma_copy dst=qt, src=q
dma_copy dst=it, src=ix
memset dst=bt, value=-7.0
tensor_copy_predicated dst=bt.ap(pattern=[[24, 32], [1, 8]], offset=0, indirect=it), src={src}, predicate=qt.ap(pattern=[[24, 32], [1, 8]], offset=0, indirect=it), reverse_pred={reverse}
dma_copy dst=b, src=bt
"""


def test_tensor_copy_predicated_gathers_the_predicate_and_scatters_dst(nisa):
    # dst's and predicate's column i are both column cols[i]: dst[:, c] = a[:, i]
    # where q[:, c] != 0 (== 0 with reverse_pred); an unselected column keeps -7
    rng = np.random.default_rng(11)
    a = rng.standard_normal((32, 8)).astype(np.float32)
    q = rng.integers(0, 2, size=(32, 24)).astype(np.uint8)
    cols = rng.permutation(24)[:8]
    ix = np.concatenate([cols, cols, cols, cols]).astype(np.int32).reshape(32, 1)
    for reverse in (False, True):
        for src, value in (("at", a), ("2.5", np.full((32, 8), 2.5, np.float32))):
            b = nisa.run(PREDICATED.format(src=src, reverse=str(reverse).lower()), inputs={"a": a, "q": q, "ix": ix})["b"]
            expected = np.full((32, 24), -7.0, np.float32)
            take = (q[:, cols] != 0) != reverse
            expected[:, cols] = np.where(take, value, np.float32(-7))
            nisa.equal("b", b, expected)


PREDICATE_GATHERED = """
.arch trn3
.hbm a  f32 [32, 8] input
.hbm q  u8 [32, 24] input
.hbm ix i32 [32, 1] input
.hbm b  f32 [32, 1] output
.sbuf at f32 [32, 8]
.sbuf qt u8 [32, 24]
.sbuf it i32 [32, 1]
.sbuf bt f32 [32, 8]
dma_copy dst=at, src=a
dma_copy dst=qt, src=q
dma_copy dst=it, src=ix
tensor_copy_predicated dst=bt, src=at, predicate=qt.ap(pattern=[[24, 32], [1, 8]], offset=0, indirect=it)
dma_copy dst=b, src=bt[:, 0:1]
"""


def test_strict_marks_what_the_gathered_predicate_selects(nisa):
    # bt is never initialised; column 0 is written where the gathered predicate
    # (q[:, 5], via ix[0] = 5) is set, although q[:, 0] itself is 0: --strict
    # accepts reading it back only if it tracks the gathered predicate
    a = np.arange(256, dtype=np.float32).reshape(32, 8)
    q = np.zeros((32, 24), np.uint8)
    q[:, 5] = 1
    ix = np.array([5, 1, 2, 3, 4, 6, 7, 8] * 4, np.int32).reshape(32, 1)
    b = nisa.run(PREDICATE_GATHERED, inputs={"a": a, "q": q, "ix": ix}, args=["--strict"])["b"]
    nisa.equal("b", b, a[:, 0:1])
    q[:, 5] = 0
    err = nisa.run(PREDICATE_GATHERED, inputs={"a": a, "q": q, "ix": ix}, args=["--strict"], expect_status=3)
    assert ":15:" in err and "never written" in err, err


def test_strict_checks_the_gathered_values(nisa):
    # S5: sqrt's valid range starts at 2^-116; the view's first column (a[:, 1 + 2 * ix[p]])
    # is positive, a later gathered one is negative: --strict faults on it
    nasm = ONE.format(line=f"activation dst=bt, op=sqrt, data={GATHERED}", n=8)
    a = np.ones((32, 24), np.float32)
    a[:, 5] = -1.0  # column 5 = 1 + 2 * 2
    ix = np.array([0, 2] + [0] * 30, np.int32).reshape(32, 1)
    err = nisa.run(nasm, inputs={"a": a, "ix": ix}, args=["--strict"], expect_status=3)
    assert "sqrt" in err and ":15:" in err, err
    b = nisa.run(nasm, inputs={"a": np.abs(a), "ix": ix}, args=["--strict"])["b"]
    nisa.equal("b", b, np.ones((32, 8), np.float32))


def test_index_outside_the_row_faults(nisa):
    a = np.zeros((32, 64), dtype=np.float32)
    c = np.zeros((32, 32), dtype=np.float32)
    ix = np.zeros((32, 1), dtype=np.int32)
    ix[5, 0] = -1
    nasm = TT_GATHER.format(n=32, k=1, step=1, first=0, op="add", out="f32")
    err = nisa.run(nasm, inputs={"a": a, "c": c, "ix": ix}, expect_status=3)
    assert "index -1 (column 5 of the .indirect() view)" in err and "'at'" in err and ":14:" in err, err


if __name__ == "__main__":
    main(globals())
