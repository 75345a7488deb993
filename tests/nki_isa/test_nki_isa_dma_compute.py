#!/usr/bin/python3
"""NKI 0.6 dma_compute, from its docstring (NKI 0.6 has no public unit test
for it): dst = reduce_op(srcs[0] * scales[0], ...) with reduce_op add and all
scales 1, computed in float32 (inputs cast to float32, the result cast to dst's
dtype); 2 and 3 sources of mixed dtypes; the read-modify-write forms, scatter
(dst(HBM)[indices] = dst(HBM)[indices] + src(SB)) and gather
(dst(SB) = dst(SB) + src(HBM)[indices]), with vector_offset and oob_mode.
Goldens are NumPy float32 sums rounded to dst's dtype (docs/SEMANTICS.md S12.1)."""
import numpy as np

from harness import main, round_to

SUM2 = """
.hbm a f32 [128, 512] input
.hbm b bf16 [128, 512] input
.hbm c f16 [128, 512] output
dma_compute dst=c, srcs=[a, b], reduce_op=add
"""


def test_two_sources_hbm(nisa):
    np.random.seed(0)
    a = np.random.random_sample([128, 512]).astype(np.float32) * 10
    b = round_to("bf16", np.random.random_sample([128, 512]).astype(np.float32) - 0.5)
    out = nisa.run(SUM2, inputs={"a": a, "b": b})["c"]
    golden = round_to("f16", a + b)
    nisa.equal("c", out.astype(np.float32), golden)


SUM3 = """
.hbm a f32 [64, 256] input
.hbm b f16 [64, 256] input
.hbm c i32 [64, 256] input
.hbm d bf16 [64, 256] output
.sbuf tb f16 [64, 256]
.sbuf tc i32 [64, 256]
.sbuf td bf16 [64, 256]
dma_copy dst=tb, src=b
dma_copy dst=tc, src=c
dma_compute dst=td, srcs=[a, tb, tc], reduce_op=add, scales=[1, 1, 1]
dma_copy dst=d, src=td
"""


def test_three_sources_sbuf_dtypes(nisa):
    np.random.seed(1)
    a = np.random.random_sample([64, 256]).astype(np.float32) * 4 - 2
    b = np.random.random_sample([64, 256]).astype(np.float16)
    c = np.random.randint(-100, 100, size=[64, 256]).astype(np.int32)
    out = nisa.run(SUM3, inputs={"a": a, "b": b, "c": c})["d"]
    golden = round_to("bf16", (a + b.astype(np.float32)) + c.astype(np.float32))
    nisa.equal("d", out.astype(np.float32), golden)


def test_integer_result_rounds(nisa):
    nasm = """
.hbm a f32 [2, 4] input
.hbm b f32 [2, 4] input
.hbm c i32 [2, 4] output
dma_compute dst=c, srcs=[a, b], reduce_op=add
"""
    a = np.array([[0.25, 1.25, 2.25, -3.75], [10.0, 0.5, 1.0, 2.0]], dtype=np.float32)
    b = np.full([2, 4], 0.25, dtype=np.float32)
    out = nisa.run(nasm, inputs={"a": a, "b": b})["c"]
    # float32 sums 0.5, 1.5, 2.5, -3.5, 10.25, 0.75, 1.25, 2.25: round to nearest even (S2.3)
    nisa.equal("c", out, np.array([[0, 2, 2, -4], [10, 1, 1, 2]], dtype=np.int32))


def scatter(step, oob_mode):
    return f"""
.hbm acc f32 [128, 64] inout
.hbm upd f32 [64, 64] input
.sbuf tu f32 [64, 64]
.sbuf idx i32 [64, 1]
dma_copy dst=tu, src=upd
iota dst=idx, pattern=[[0, 1]], offset=1, channel_multiplier={step}
dma_compute dst=acc.ap(pattern=[[64, 64], [1, 64]], offset=0, vector_offset=idx, indirect_dim=0), srcs=[acc.ap(pattern=[[64, 64], [1, 64]], offset=0, vector_offset=idx, indirect_dim=0), tu], reduce_op=add, oob_mode={oob_mode}
"""


def test_scatter_rmw(nisa):
    np.random.seed(2)
    acc = np.random.random_sample([128, 64]).astype(np.float32)
    upd = np.random.random_sample([64, 64]).astype(np.float32)
    out = nisa.run(scatter(2, "error"), inputs={"acc": acc, "upd": upd})["acc"]
    golden = acc.copy()
    rows = 1 + 2 * np.arange(64)
    golden[rows] = golden[rows] + upd
    nisa.equal("acc", out, golden)


def test_scatter_rmw_oob(nisa):
    np.random.seed(3)
    acc = np.random.random_sample([128, 64]).astype(np.float32)
    upd = np.random.random_sample([64, 64]).astype(np.float32)
    err = nisa.run(scatter(3, "error"), inputs={"acc": acc, "upd": upd}, expect_status=3)
    # partition 43 is the first whose row, 1 + 3*43 = 130, lies outside the 128 rows
    assert "index 130 (partition 43)" in err and "acc" in err, err
    out = nisa.run(scatter(3, "skip"), inputs={"acc": acc, "upd": upd})["acc"]
    golden = acc.copy()
    for p in range(64):
        if 1 + 3 * p < 128:
            golden[1 + 3 * p] += upd[p]
    nisa.equal("acc", out, golden)


GATHER = """
.hbm table bf16 [128, 32] input
.hbm base f32 [64, 32] input
.hbm out f32 [64, 32] output
.sbuf t f32 [64, 32]
.sbuf idx i32 [64, 1]
dma_copy dst=t, src=base
iota dst=idx, pattern=[[0, 1]], offset=127, channel_multiplier=-2
dma_compute dst=t, srcs=[table.ap(pattern=[[32, 64], [1, 32]], offset=0, vector_offset=idx, indirect_dim=0), t], reduce_op=add
dma_copy dst=out, src=t
"""


def test_gather_rmw(nisa):
    np.random.seed(4)
    table = round_to("bf16", np.random.random_sample([128, 32]).astype(np.float32))
    base = np.random.random_sample([64, 32]).astype(np.float32)
    out = nisa.run(GATHER, inputs={"table": table, "base": base})["out"]
    golden = table[127 - 2 * np.arange(64)] + base
    nisa.equal("out", out, golden)


def test_strict_unwritten_source(nisa):
    nasm = """
.hbm a f32 [4, 3] input
.hbm o f32 [4, 3] output
.sbuf t f32 [4, 3]
.sbuf u f32 [4, 3]
dma_copy dst=t, src=a
dma_compute dst=o, srcs=[t, u], reduce_op=add
"""
    err = nisa.run(nasm, inputs={"a": np.ones([4, 3], dtype=np.float32)}, args=["--strict"], expect_status=3)
    assert "never written" in err and ":7:" in err, err


if __name__ == "__main__":
    main(globals())
