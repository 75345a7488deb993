#!/usr/bin/python3
"""NKI 0.6 nki/test/test_nki_isa_nc_match_replace8.py, re-expressed: max8 of
each row, then nc_match_replace8 of those values (docs/SEMANTICS.md S4.32,
S4.34). The five cases of the test: a [4, 16] nl.rand tile with imm -inf;
[128, 512] with dst_idx; the same under the mask (partitions 0..63, columns
0..255: written here as those slices); [128, 4, 4] with imm 0 into a
memset tile; [128, 4, 4] in place. Golden: the test's own
get_replaced_output_and_max_indices (ported below)."""
import numpy as np

from harness import Mismatch, main


def match_and_get_index(data, vals):
    # The test's helper; `len(matches)` where it writes `if matches:`, which
    # NumPy only allows for one match (the test's random values are distinct).
    row = data.copy()
    result = np.zeros(shape=vals.shape, dtype=np.int32)
    for j in range(vals.shape[-1]):
        matches = np.where(row == vals[j])[0]
        if len(matches):
            idx = matches[0]
            row[idx] = np.float32("-inf")
            result[j] = idx
    return result


def get_replaced_output_and_max_indices(a, imm=0):
    a_reshaped = a.reshape(a.shape[0], -1)
    max_vals = np.flip(np.sort(a_reshaped, axis=-1)[:, -8:], axis=-1)
    c = a_reshaped.copy()
    concat = np.concatenate([c, max_vals], axis=-1)
    c_idx = np.apply_along_axis(lambda x: match_and_get_index(x[:-8], x[-8:]), axis=-1, arr=concat).astype(np.uint32)
    np.put_along_axis(c, indices=c_idx, values=imm, axis=-1)
    return np.reshape(c, a.shape), c_idx


EXAMPLE_1 = """
.hbm data_in f32 [4, 16] input
.hbm result_tensor f32 [4, 16] output
.sbuf data_tile f32 [4, 16]
.sbuf max_vals f32 [4, 8]
.sbuf result f32 [4, 16]
dma_copy dst=data_tile, src=data_in
max8 dst=max_vals, src=data_tile
nc_match_replace8 dst=result, data=data_tile, vals=max_vals, imm=-inf
dma_copy dst=result_tensor, src=result
"""


def test_nc_match_replace8(nisa):
    rng = np.random.default_rng(0)
    data = rng.random((4, 16)).astype(np.float32)  # nl.rand
    result = nisa.run(EXAMPLE_1, inputs={"data_in": data}, outputs=["result_tensor"], args=["--strict"])["result_tensor"]
    if result.shape != (4, 16) or result.dtype != np.float32:
        raise Mismatch(f"shape {result.shape} dtype {result.dtype}")
    neg_inf = np.isinf(result) & (result < 0)
    if not np.all(neg_inf.sum(axis=1) == 8):
        raise Mismatch("each row should have exactly 8 -inf values")
    if not (np.all(result[~neg_inf] >= 0) and np.all(result[~neg_inf] <= 1)):
        raise Mismatch("non-inf values should be in [0, 1]")
    nisa.equal("result_tensor", result, get_replaced_output_and_max_indices(data, np.float32("-inf"))[0])


EXAMPLE_2 = """
.hbm in_tensor f32 [128, 512] input
.hbm out_tensor f32 [128, 512] output
.hbm idx_tensor u32 [128, 8] output
.sbuf inp_tile f32 [128, 512]
.sbuf max_vals f32 [128, 8]
.sbuf out_tile f32 [128, 512]
.sbuf dst_idx u32 [128, 8]
dma_copy dst=inp_tile, src=in_tensor
max8 dst=max_vals, src=inp_tile
nc_match_replace8 dst=out_tile, data=inp_tile, vals=max_vals, imm=-inf, dst_idx=dst_idx
dma_copy dst=out_tensor, src=out_tile
dma_copy dst=idx_tensor, src=dst_idx
"""


def test_nc_match_replace_indices8(nisa):
    imm = np.float32("-inf")
    np.random.seed(0)
    a = np.random.random_sample([128, 512]).astype(np.float32)
    out = nisa.run(EXAMPLE_2, inputs={"in_tensor": a}, outputs=["out_tensor", "idx_tensor"], args=["--strict"])
    c, c_idx = get_replaced_output_and_max_indices(a, imm)
    nisa.close("out_tensor", out["out_tensor"], c, rtol=1e-5, atol=1e-8)
    nisa.close("idx_tensor", out["idx_tensor"], c_idx, rtol=1e-5, atol=1e-8)


EXAMPLE_3 = """
.hbm in_tensor f32 [128, 512] input
.hbm out_tensor f32 [128, 512] output
.hbm idx_tensor u32 [128, 8] output
.sbuf inp_tile f32 [128, 512]
.sbuf max_vals f32 [128, 8]
.sbuf out_tile f32 [128, 512]
.sbuf idx_tile u32 [128, 8]
memset dst=idx_tile, value=0
memset dst=out_tile, value=0
dma_copy dst=inp_tile, src=in_tensor
; mask=(ix < n // 2 and iy < m // 2): the kernel reads partitions 0..63, columns 0..255
max8 dst=max_vals[0:64], src=inp_tile[0:64, 0:256]
nc_match_replace8 dst=out_tile[0:64, 0:256], data=inp_tile[0:64, 0:256], vals=max_vals[0:64], imm=-inf, dst_idx=idx_tile[0:64]
dma_copy dst=out_tensor, src=out_tile
dma_copy dst=idx_tensor, src=idx_tile
"""


def test_nc_match_replace_indices8_mask(nisa):
    imm = np.float32("-inf")
    np.random.seed(0)
    a = np.random.random_sample([128, 512]).astype(np.float32)
    out = nisa.run(EXAMPLE_3, inputs={"in_tensor": a}, outputs=["out_tensor", "idx_tensor"], args=["--strict"])
    c, c_idx = get_replaced_output_and_max_indices(a[:64, :256], imm)
    nisa.close("out_tensor", out["out_tensor"][:64, :256], c, rtol=1e-5, atol=1e-8)
    nisa.close("idx_tensor", out["idx_tensor"][:64, :256], c_idx, rtol=1e-5, atol=1e-8)


EXAMPLE_4 = """
.hbm data_tensor f32 [128, 4, 4] input
.hbm out_tensor f32 [128, 4, 4] output
.hbm idx_tensor u32 [128, 8] output
.sbuf inp_tile f32 [128, 4, 4]
.sbuf max_vals f32 [128, 8]
.sbuf out_tile f32 [128, 4, 4]
.sbuf idx_tile u32 [128, 8]
memset dst=idx_tile, value=0
memset dst=out_tile, value=0
dma_copy dst=inp_tile, src=data_tensor
max8 dst=max_vals, src=inp_tile
nc_match_replace8 dst=out_tile, data=inp_tile, vals=max_vals, imm=0.0, dst_idx=idx_tile
dma_copy dst=out_tensor, src=out_tile
dma_copy dst=idx_tensor, src=idx_tile
"""

EXAMPLE_5 = """
.hbm data_tensor f32 [128, 4, 4] input
.hbm out_tensor f32 [128, 4, 4] output
.hbm idx_tensor u32 [128, 8] output
.sbuf inp_tile f32 [128, 4, 4]
.sbuf max_vals f32 [128, 8]
.sbuf idx_tile u32 [128, 8]
memset dst=idx_tile, value=0
dma_copy dst=inp_tile, src=data_tensor
max8 dst=max_vals, src=inp_tile
nc_match_replace8 dst=inp_tile, data=inp_tile, vals=max_vals, imm=0.0, dst_idx=idx_tile
dma_copy dst=out_tensor, src=inp_tile
dma_copy dst=idx_tensor, src=idx_tile
"""


def check_3d(nisa, nasm):
    np.random.seed(0)
    a = np.random.random_sample([128, 4, 4]).astype(np.float32)
    out = nisa.run(nasm, inputs={"data_tensor": a}, outputs=["out_tensor", "idx_tensor"], args=["--strict"])
    c, c_idx = get_replaced_output_and_max_indices(a, imm=0)
    nisa.close("out_tensor", out["out_tensor"], c, rtol=1e-5, atol=1e-8)
    nisa.close("idx_tensor", out["idx_tensor"], c_idx, rtol=1e-5, atol=1e-8)


def test_nc_match_replace_indices8_3d(nisa):
    check_3d(nisa, EXAMPLE_4)


def test_nc_match_replace_indices8_3d_inplace(nisa):
    check_3d(nisa, EXAMPLE_5)


DOCSTRING = """
.hbm data_in f32 [1, 11] input
.hbm vals_in f32 [1, 8] input
.hbm idx u32 [1, 8] output
.hbm out f32 [1, 11] output
.sbuf data f32 [1, 11]
.sbuf vals f32 [1, 8]
.sbuf dst_idx u32 [1, 8]
.sbuf dst f32 [1, 11]
dma_copy dst=data, src=data_in
dma_copy dst=vals, src=vals_in
nc_match_replace8 dst=dst, data=data, vals=vals, imm=-1, dst_idx=dst_idx
dma_copy dst=idx, src=dst_idx
dma_copy dst=out, src=dst
"""


def test_docstring_duplicate_vals(nisa):
    """The docstring's example: vals processed 7..0, duplicates matched in descending slots."""
    data = np.array([[1, 2, 3, 4, 8, 8, 8, 8, 8, 8, 8]], dtype=np.float32)
    vals = np.array([[3, 8, 8, 8, 8, 8, 8, 8]], dtype=np.float32)
    out = nisa.run(DOCSTRING, inputs={"data_in": data, "vals_in": vals}, outputs=["idx", "out"], args=["--strict"])
    nisa.equal("idx", out["idx"], np.array([[2, 10, 9, 8, 7, 6, 5, 4]], dtype=np.uint32))
    nisa.equal("out", out["out"], np.array([[1, 2, -1, 4, -1, -1, -1, -1, -1, -1, -1]], dtype=np.float32))


if __name__ == "__main__":
    main(globals())
