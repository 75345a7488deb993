#!/usr/bin/python3
"""NKI 0.6 nki/test/test_nki_isa_dma_copy.py, re-expressed: a plain HBM copy;
indirect loads (gather, `src=in_tensor.ap(..., vector_offset=idx_tile,
indirect_dim=0)`) and stores (scatter, on dst) with oob_mode error and skip;
dge_mode swdge and hwdge (trn2). The test's old-style `in_tensor[idx_tile, iy]`
indexing is NKI 0.6's vector_offset access pattern (nki-aps "Dynamic Access").
Goldens (the test's own): copies; a[2*arange(64)]; the first n//3 + 1 rows of
a[3*i] with -1 elsewhere; rows 2*i of the output = a; rows 3*i = a[i]. Where the
test expects IndexError, nisa stops with a runtime fault (exit 3) naming the
index. test_indirect_store_rmw is not re-expressed: its `dst_rmw_op` is not a
parameter of NKI 0.6's dma_copy (dma_compute does a read-modify-write).
test_dtype_conversion follows the docstring's "Data types" paragraph instead
(no test of NKI's covers it): another dtype is reached through float32."""
import numpy as np

from harness import main, round_to

COPY = """
.hbm a f32 [256, 1] input
.hbm b f32 [256, 1] output
dma_copy dst=b, src=a
"""


def test_tensor_copy(nisa):
    np.random.seed(0)
    src = np.random.random_sample([256, 1]).astype(np.float32) * 100
    nisa.equal("b", nisa.run(COPY, inputs={"a": src})["b"], np.copy(src))


def gather(step, oob_mode):
    return f"""
.hbm in_tensor f32 [128, 512] input
.hbm out_tensor f32 [64, 512] output
.sbuf idx_tile i32 [64, 1]
.sbuf out_tile f32 [64, 512]
iota dst=idx_tile, pattern=[[0, 1]], offset=0, channel_multiplier={step}
memset dst=out_tile, value=-1
dma_copy src=in_tensor.ap(pattern=[[512, 64], [1, 512]], offset=0, vector_offset=idx_tile, indirect_dim=0), dst=out_tile, oob_mode={oob_mode}
dma_copy dst=out_tensor, src=out_tile
"""


def scatter(step, oob_mode):
    return f"""
.hbm in_tensor f32 [64, 512] input
.hbm out_tensor f32 [128, 512] output
.sbuf inp_tile f32 [64, 512]
.sbuf idx_tile i32 [64, 1]
.sbuf out_tile f32 [128, 512]
dma_copy dst=inp_tile, src=in_tensor
iota dst=idx_tile, pattern=[[0, 1]], offset=0, channel_multiplier={step}
memset dst=out_tile, value=-1
dma_copy dst=out_tensor, src=out_tile
dma_copy dst=out_tensor.ap(pattern=[[512, 64], [1, 512]], offset=0, vector_offset=idx_tile, indirect_dim=0), src=inp_tile, oob_mode={oob_mode}
"""


def test_indirect_load_oob_err(nisa):
    np.random.seed(0)
    a = np.random.random_sample([128, 512]).astype(np.float32)
    b = nisa.run(gather(2, "error"), inputs={"in_tensor": a})["out_tensor"]
    nisa.equal("b", b, a[2 * np.arange(64, dtype=np.int32)])


def test_indirect_load_oob_err_negative(nisa):
    np.random.seed(0)
    a = np.random.random_sample([128, 512]).astype(np.float32)
    err = nisa.run(gather(3, "error"), inputs={"in_tensor": a}, expect_status=3)
    # partition 43 is the first whose row, 129, lies outside the 128 rows
    assert "index 129 (partition 43)" in err and "in_tensor" in err, err


def test_indirect_load_oob_skip(nisa):
    np.random.seed(0)
    a = np.random.random_sample([128, 512]).astype(np.float32)
    b = nisa.run(gather(3, "skip"), inputs={"in_tensor": a})["out_tensor"]
    n, m = a.shape
    b_golden = np.full((n // 2, m), -1, dtype=a.dtype)
    indices = 3 * np.arange((n // 3) + 1)
    b_golden[0:len(indices)] = a[indices, :]
    nisa.equal("b", b, b_golden)


def test_indirect_store_oob_err(nisa):
    np.random.seed(0)
    a = np.random.random_sample([64, 512]).astype(np.float32)
    b = nisa.run(scatter(2, "error"), inputs={"in_tensor": a})["out_tensor"]
    n, m = a.shape
    b_golden = np.full(shape=(2 * n, m), fill_value=-1, dtype=a.dtype)
    b_golden[2 * np.arange(n, dtype=np.int32)] = a
    nisa.equal("b", b, b_golden)


def test_indirect_store_oob_err_negative(nisa):
    np.random.seed(0)
    a = np.random.random_sample([64, 512]).astype(np.float32)
    err = nisa.run(scatter(3, "error"), inputs={"in_tensor": a}, expect_status=3)
    assert "index 129 (partition 43)" in err and "out_tensor" in err, err


def test_indirect_store_oob_skip(nisa):
    np.random.seed(0)
    a = np.random.random_sample([64, 512]).astype(np.float32)
    b = nisa.run(scatter(3, "skip"), inputs={"in_tensor": a})["out_tensor"]
    n, m = a.shape
    b_golden = np.full(shape=(2 * n, m), fill_value=-1, dtype=a.dtype)
    indices = 3 * np.arange(((2 * n) // 3) + 1)
    b_golden[indices, :] = a[0:len(indices), :]
    nisa.equal("b", b, b_golden)


def test_dma_copy_swdge(nisa):
    np.random.seed(0)
    a = np.random.random_sample([64, 512]).astype(np.float32)
    nasm = """
.hbm in_tensor f32 [64, 512] input
.hbm out_tensor f32 [64, 512] output
dma_copy dst=out_tensor, src=in_tensor, dge_mode=swdge
"""
    nisa.equal("b", nisa.run(nasm, inputs={"in_tensor": a})["out_tensor"], a)


def test_dma_copy_hwdge(nisa):
    np.random.seed(0)
    a = np.random.random_sample([128, 512]).astype(np.float32)
    nasm = """
.arch trn2
.hbm in_tensor f32 [128, 512] input
.hbm out_tensor f32 [128, 512] output
.sbuf inp_tile f32 [128, 512]
.sbuf out_tile f32 [128, 512]
dma_copy dst=inp_tile, src=in_tensor
memset dst=out_tile, value=0
dma_copy dst=out_tile, src=inp_tile, dge_mode=hwdge
dma_copy dst=out_tensor, src=out_tile
"""
    nisa.equal("b", nisa.run(nasm, inputs={"in_tensor": a})["out_tensor"], a)


# nki-aps "Scalar Dynamic Access": A of shape [4*128, 512], copy A[3*128:, 0:256]
# with the 3*128 coming from SBUF (scalar_offset on indirect_dim 0); and the
# docstring's rule offset + scalar_offset * prod(shape[indirect_dim+1:]) on a
# middle dimension. Golden: NumPy slicing of the same rows.
def test_scalar_dynamic_dma(nisa):
    rng = np.random.default_rng(3)
    a = rng.random([512, 512]).astype(np.float32)
    cube = rng.random([4, 8, 16]).astype(np.float32)
    nasm = """
.hbm A f32 [512, 512] input
.hbm cube f32 [4, 8, 16] input
.hbm result f32 [128, 256] output
.hbm plane f32 [4, 16] output
.sbuf batch_idx i32 [1, 1]
.sbuf row i32 [1, 1]
memset dst=batch_idx, value=3 * 128
dma_copy src=A.ap(pattern=[[512, 128], [1, 256]], offset=0, scalar_offset=batch_idx, indirect_dim=0), dst=result
memset dst=row, value=5
dma_copy dst=plane, src=cube.ap(pattern=[[128, 4], [1, 16]], offset=0, scalar_offset=row, indirect_dim=1)
"""
    out = nisa.run(nasm, inputs={"A": a, "cube": cube})
    nisa.equal("result", out["result"], a[3 * 128:, 0:256])
    nisa.equal("plane", out["plane"], cube[:, 5, :])


# NKI 0.6 dma_copy docstring: "The DMA engines automatically handle data type
# conversion when src and dst have different data types ... first casting from
# src.dtype to float32, then from float32 to dst.dtype." Goldens: NumPy's own
# conversions (round to nearest even; to int32 rounded, saturated, NaN to 0 as
# docs/SEMANTICS.md S2.3 says), and bf16 by the reference model's rounding.
def test_dtype_conversion(nisa):
    rng = np.random.default_rng(8)
    a = (rng.standard_normal([128, 64]) * 1e3).astype(np.float32)
    a[0, :6] = [3e9, -3e9, 2.5, -2.5, 65520.0, np.inf]
    i = rng.integers(-2 ** 31, 2 ** 31 - 1, [128, 64]).astype(np.int32)  # most are not float32 values
    nasm = """
.hbm a f32 [128, 64] input
.hbm i i32 [128, 64] input
.hbm via_bf16 f32 [128, 64] output
.hbm half f16 [128, 64] output
.hbm ints i32 [128, 64] output
.hbm floats f32 [128, 64] output
.hbm gathered f16 [64, 64] output
.sbuf t bf16 [128, 64]
.sbuf u f32 [128, 64]
.sbuf idx i32 [64, 1]
.sbuf g f16 [64, 64]
dma_copy dst=t, src=a
dma_copy dst=via_bf16, src=t
dma_copy dst=half, src=a
dma_copy dst=ints, src=a
dma_copy dst=u, src=i
dma_copy dst=floats, src=u
iota dst=idx, pattern=[[0, 1]], offset=0, channel_multiplier=2
dma_copy dst=g, src=a.ap(pattern=[[64, 64], [1, 64]], offset=0, vector_offset=idx, indirect_dim=0)
dma_copy dst=gathered, src=g
"""
    out = nisa.run(nasm, inputs={"a": a, "i": i})
    with np.errstate(over="ignore", invalid="ignore"):
        nisa.equal("via_bf16", out["via_bf16"], round_to("bf16", a))
        nisa.equal("half", out["half"], a.astype(np.float16))
        ints = np.clip(np.nan_to_num(np.rint(a.astype(np.float64)), nan=0.0), -2.0 ** 31, 2.0 ** 31 - 1)
        nisa.equal("ints", out["ints"], ints.astype(np.int32))
        nisa.equal("floats", out["floats"], i.astype(np.float32))
        nisa.equal("gathered", out["gathered"], a[2 * np.arange(64)].astype(np.float16))


# index_stride (LANGUAGE.md 2.3): a runtime index on a view that is not the
# declared tensor moves by that view's stride. nki-library's router_topk
# scatters one affinity per token into expert_affinities.reshape((T*E,)) at
# the flat position t*E + expert (stride 1), its index a column of an SBUF
# tile taken with .ap; a KV cache x of shape (B, S, D) is read and written
# through x.reshape((B*S, D)) (stride D). Expected arrays written out by hand.
TOPK_SCATTER = """
.hbm  affinities f32 [4, 4] inout
.hbm  positions  i32 [4, 2] input
.hbm  topk       f32 [4, 2] input
.sbuf pos  i32 [4, 2]
.sbuf vals f32 [4, 2] @ 64
dma_copy dst=pos, src=positions
dma_copy dst=vals, src=topk
dma_copy dst=affinities.ap(pattern=[[2, 4], [1, 1]], offset=0, vector_offset=pos.ap(pattern=[[2, 4], [1, 1]], offset=0), indirect_dim=0, index_stride=1), src=vals.ap(pattern=[[2, 4], [1, 1]], offset=0), oob_mode={oob_mode}
dma_copy dst=affinities.ap(pattern=[[2, 4], [1, 1]], offset=0, vector_offset=pos.ap(pattern=[[2, 4], [1, 1]], offset=1), indirect_dim=0, index_stride=1), src=vals.ap(pattern=[[2, 4], [1, 1]], offset=1), oob_mode={oob_mode}
"""
# token t picks experts (1, 3), (0, 2), (3, 0), (2, 1): flat positions t*4 + e
TOPK_POSITIONS = np.array([[1, 3], [4, 6], [11, 8], [14, 13]], dtype=np.int32)
TOPK_VALUES = np.array([[0.5, 0.25], [0.75, 0.125], [1.5, 2.5], [3.0, 4.0]], dtype=np.float32)


def test_index_stride_scatter_into_a_flattened_view(nisa):
    out = nisa.run(TOPK_SCATTER.format(oob_mode="error"), inputs={
        "affinities": np.zeros((4, 4), np.float32), "positions": TOPK_POSITIONS, "topk": TOPK_VALUES})
    nisa.equal("affinities", out["affinities"], np.array([[0, 0.5, 0, 0.25],
                                                          [0.75, 0, 0.125, 0],
                                                          [2.5, 0, 0, 1.5],
                                                          [0, 4.0, 3.0, 0]], dtype=np.float32))


def test_index_stride_scatter_out_of_bounds(nisa):
    positions = TOPK_POSITIONS.copy()
    positions[2, 1] = 16  # one past the 16 elements of the flattened view
    inputs = {"affinities": np.full((4, 4), -1, np.float32), "positions": positions, "topk": TOPK_VALUES}
    err = nisa.run(TOPK_SCATTER.format(oob_mode="error"), inputs=inputs, expect_status=3)
    assert "index 16 (partition 2)" in err and "affinities" in err, err
    out = nisa.run(TOPK_SCATTER.format(oob_mode="skip"), inputs=inputs)
    nisa.equal("affinities", out["affinities"], np.array([[-1, 0.5, -1, 0.25],
                                                          [0.75, -1, 0.125, -1],
                                                          [-1, -1, -1, 1.5],
                                                          [-1, 4.0, 3.0, -1]], dtype=np.float32))


KV_CACHE = """
.hbm  cache f32 [2, 4, 8] inout
.hbm  rows  i32 [3, 1] input
.hbm  new   f32 [3, 8] input
.hbm  read  f32 [3, 8] output
.hbm  start i32 [1, 1] input
.hbm  block f32 [3, 8] output
.sbuf idx  i32 [3, 1]
.sbuf s    i32 [1, 1] @ 4
.sbuf old  f32 [3, 8] @ 8
.sbuf tile f32 [3, 8] @ 40
.sbuf blk  f32 [3, 8] @ 72
dma_copy dst=idx, src=rows
dma_copy dst=s, src=start
dma_copy dst=tile, src=new
dma_copy dst=old, src=cache.ap(pattern=[[8, 3], [1, 8]], offset=0, vector_offset=idx, indirect_dim=0, index_stride=8)
dma_copy dst=read, src=old
dma_copy dst=cache.ap(pattern=[[8, 3], [1, 8]], offset=0, vector_offset=idx, indirect_dim=0, index_stride=8), src=tile
dma_copy dst=blk, src=cache.ap(pattern=[[8, 3], [1, 8]], offset=0, scalar_offset=s, indirect_dim=0, index_stride=8), oob_mode={oob_mode}
dma_copy dst=block, src=blk
"""


def test_index_stride_kv_cache_rows_of_a_reshaped_view(nisa):
    cache = np.arange(64, dtype=np.float32).reshape(2, 4, 8)
    new = -np.arange(1, 25, dtype=np.float32).reshape(3, 8)
    # rows 5, 0, 7 of cache.reshape((8, 8)) are cache[1, 1], cache[0, 0], cache[1, 3]
    out = nisa.run(KV_CACHE.format(oob_mode="error"), inputs={
        "cache": cache, "rows": np.array([[5], [0], [7]], np.int32), "new": new, "start": np.array([[4]], np.int32)})
    nisa.equal("read", out["read"], np.stack([cache[1, 1], cache[0, 0], cache[1, 3]]))
    expected = cache.copy()
    expected[1, 1], expected[0, 0], expected[1, 3] = new[0], new[1], new[2]
    nisa.equal("cache", out["cache"], expected)
    # scalar_offset 4 on the reshaped view: its rows 4..6, cache[1, 0:3] after the scatter
    nisa.equal("block", out["block"], np.stack([cache[1, 0], new[0], cache[1, 2]]))


def test_index_stride_scalar_offset_out_of_bounds(nisa):
    inputs = {"cache": np.zeros((2, 4, 8), np.float32), "rows": np.array([[5], [0], [7]], np.int32),
              "new": np.ones((3, 8), np.float32), "start": np.array([[6]], np.int32)}  # rows 6..8 of 8
    err = nisa.run(KV_CACHE.format(oob_mode="error"), inputs=inputs, expect_status=3)
    assert "index 6 takes the view outside 'cache'" in err, err


def test_a_static_view_after_a_vector_offset_view_of_the_same_pattern(nisa):
    # the gather's partitions all start at its offset plus their index; the
    # plain view of the same pattern still steps 64 elements per partition
    nasm = """
.hbm  table f32 [8, 64] input
.hbm  rows  i32 [4, 1] input
.hbm  gathered f32 [4, 64] output
.hbm  plain    f32 [4, 64] output
.sbuf idx i32 [4, 1]
.sbuf g   f32 [4, 64] @ 4
.sbuf p   f32 [4, 64] @ 260
dma_copy dst=idx, src=rows
dma_copy dst=g, src=table.ap(pattern=[[64, 4], [1, 64]], offset=0, vector_offset=idx, indirect_dim=0)
dma_copy dst=p, src=table.ap(pattern=[[64, 4], [1, 64]], offset=0)
dma_copy dst=gathered, src=g
dma_copy dst=plain, src=p
"""
    table = np.arange(512, dtype=np.float32).reshape(8, 64)
    out = nisa.run(nasm, inputs={"table": table, "rows": np.array([[7], [2], [2], [5]], np.int32)})
    nisa.equal("gathered", out["gathered"], table[[7, 2, 2, 5]])
    nisa.equal("plain", out["plain"], table[0:4])


if __name__ == "__main__":
    main(globals())
