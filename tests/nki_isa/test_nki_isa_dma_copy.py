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


if __name__ == "__main__":
    main(globals())
