#!/usr/bin/python3
"""tensor_copy with .indirect() views (Tensor Indirection, NeuronCore-v4),
written as `.ap(pattern=[[E, P], [s, N]], offset=K, indirect=IDX)`. No NKI
unit test covers it; the expectations follow the docstrings instead:
NkiTensor.indirect ("reading or writing a column of data at given
free-dimension offsets across contiguous partition dimensions"; "offset i
comes from index[i % G, i // G]", G = 16 on the Vector/Scalar engines) and
tensor_copy's "Tensor indirection" paragraph. Where the docstring's formula
leaves the index's later partition groups open, docs/SEMANTICS.md S1.7 says
what nisa chose: the groups of 16 partitions read side by side (with one
index column, offset i is index[i, 0]). Golden values are NumPy fancy
indexing written here, never nisa's output."""
import numpy as np

from harness import main


def offsets(index, n, group=16):
    """Column i's offset: index[i % G, i // G] read across the index's groups
    of G partitions laid side by side (S1.7)."""
    k = index.shape[1]
    return np.array([index[group * ((i // group) // k) + i % group, (i // group) % k] for i in range(n)])


GATHER = """
.arch trn3
.hbm a  {dt} [{p}, 64] input
.hbm ix i32 [{p}, {k}] input
.hbm b  {out} [{p}, {n}] output
.sbuf at {dt} [{p}, 64]
.sbuf it i32 [{p}, {k}]
.sbuf bt {out} [{p}, {n}]
dma_copy dst=at, src=a
dma_copy dst=it, src=ix
tensor_copy dst=bt, src=at.ap(pattern=[[64, {p}], [{step}, {n}]], offset={first}, indirect=it), engine={engine}
dma_copy dst=b, src=bt
"""


def gather(nisa, p, k, n, step=1, first=0, engine="vector", dt="f32", out="f32", seed=0):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((p, 64)).astype(np.float32)
    reach = (64 - first + step - 1) // step  # index values that stay inside the row
    ix = rng.integers(0, reach, size=(p, k)).astype(np.int32)
    nasm = GATHER.format(p=p, k=k, n=n, step=step, first=first, engine=engine, dt=dt, out=out)
    b = nisa.run(nasm, inputs={"a": a, "ix": ix})["b"]
    return a, ix, b


def test_gather_one_index_column(nisa):
    # k = 1: column i reads index[i, 0] (32 partitions, 32 columns)
    a, ix, b = gather(nisa, 32, 1, 32)
    nisa.equal("b", b, a[:, ix[:, 0]])


def test_gather_docstring_formula(nisa):
    # 16 partitions, k = 4: exactly the docstring's index[i % 16, i // 16]
    a, ix, b = gather(nisa, 16, 4, 64)
    nisa.equal("b", b, a[:, [ix[i % 16, i // 16] for i in range(64)]])


def test_gather_snake_two_groups(nisa):
    # 32 partitions, k = 2: columns 0..31 from the first group's two columns,
    # 32..63 from the second group's (S1.7)
    a, ix, b = gather(nisa, 32, 2, 64)
    expected = [ix[i % 16, 0] for i in range(16)] + [ix[i % 16, 1] for i in range(16)]
    expected += [ix[16 + i % 16, 0] for i in range(16)] + [ix[16 + i % 16, 1] for i in range(16)]
    nisa.equal("b", b, a[:, expected])
    nisa.equal("b", b, a[:, offsets(ix, 64)])


def test_gather_step_and_offset_scalar_engine(nisa):
    # the pattern's free step scales the index, the offset starts the row at 5
    a, ix, b = gather(nisa, 32, 1, 32, step=2, first=5, engine="scalar")
    nisa.equal("b", b, a[:, 5 + 2 * ix[:, 0]])


def test_gather_converts_through_float32(nisa):
    # tensor_copy's dtype rule holds: bf16 of the gathered float32 values
    from harness import round_to
    a, ix, b = gather(nisa, 32, 1, 32, out="bf16")
    nisa.equal("b", b, round_to("bf16", a[:, ix[:, 0]]))


SCATTER = """
.arch trn3
.hbm a  f32 [32, 16] input
.hbm ix i32 [32, 1] input
.hbm b  f32 [32, 64] output
.sbuf at f32 [32, 16]
.sbuf it i32 [32, 1]
.sbuf bt f32 [32, 64]
dma_copy dst=at, src=a
dma_copy dst=it, src=ix
memset dst=bt, value=-1
tensor_copy dst=bt.ap(pattern=[[64, 32], [1, 16]], offset=0, indirect=it), src=at
dma_copy dst=b, src=bt
"""


def test_scatter(nisa):
    rng = np.random.default_rng(1)
    a = rng.standard_normal((32, 16)).astype(np.float32)
    cols = rng.permutation(64)[:32].astype(np.int32)  # distinct: no column written twice
    b = nisa.run(SCATTER, inputs={"a": a, "ix": cols.reshape(32, 1)}, args=["--strict"])["b"]
    expected = np.full((32, 64), -1, dtype=np.float32)
    expected[:, cols[:16]] = a  # 16 columns read index[0..15, 0]
    nisa.equal("b", b, expected)


GATHER_SCATTER_PSUM = """
.arch trn3
.hbm a  f32 [32, 64] input
.hbm ix i32 [32, 1] input
.hbm b  f32 [32, 64] output
.sbuf at f32 [32, 64]
.sbuf it i32 [32, 1]
.psum pt f32 [32, 64]
.sbuf bt f32 [32, 64]
dma_copy dst=at, src=a
dma_copy dst=it, src=ix
tensor_copy dst=pt, src=at
memset dst=bt, value=0
tensor_copy dst=bt.ap(pattern=[[64, 32], [1, 8]], offset=0, indirect=it), src=pt.ap(pattern=[[64, 32], [1, 8]], offset=0, indirect=it)
dma_copy dst=b, src=bt
"""


def test_gather_and_scatter_from_psum(nisa):
    # both sides indirect, the same index: b[:, c] = a[:, c] for the 8 columns named
    rng = np.random.default_rng(2)
    a = rng.standard_normal((32, 64)).astype(np.float32)
    cols = rng.permutation(64)[:32].astype(np.int32)
    b = nisa.run(GATHER_SCATTER_PSUM, inputs={"a": a, "ix": cols.reshape(32, 1)})["b"]
    expected = np.zeros((32, 64), dtype=np.float32)
    expected[:, cols[:8]] = a[:, cols[:8]]
    nisa.equal("b", b, expected)


def test_index_outside_the_row_faults(nisa):
    a = np.zeros((32, 64), dtype=np.float32)
    ix = np.zeros((32, 1), dtype=np.int32)
    ix[7, 0] = 64  # one past the row
    nasm = GATHER.format(p=32, k=1, n=32, step=1, first=0, engine="vector", dt="f32", out="f32")
    err = nisa.run(nasm, inputs={"a": a, "ix": ix}, expect_status=3)
    assert "index 64 (column 7 of the .indirect() view)" in err and "'at'" in err and ":11:" in err, err


if __name__ == "__main__":
    main(globals())
