#!/usr/bin/python3
"""NKI 0.6 nki/test/test_nki_isa_nc_find_index8.py, re-expressed: max8 of a
[32, 128] tile of nl.rand values, then nc_find_index8 of those 8 values in
the same tile into a uint32 [32, 8] tensor (docs/SEMANTICS.md S4.32, S4.33).
The test's own checks: shape (32, 8), dtype uint32, indices in [0, 128),
adjacent indices different. Golden added here (NumPy): the first 8 of
np.argsort of the negated row (distinct values: the positions of the 8
largest, largest first)."""
import numpy as np

from harness import Mismatch, main

NASM = """
.hbm data_in f32 [32, 128] input
.hbm indices_tensor u32 [32, 8] output
.sbuf data f32 [32, 128]
.sbuf max_vals f32 [32, 8]
.sbuf indices u32 [32, 8]
dma_copy dst=data, src=data_in
max8 dst=max_vals, src=data
nc_find_index8 dst=indices, data=data, vals=max_vals
dma_copy dst=indices_tensor, src=indices
"""


def test_max_index8(nisa):
    rng = np.random.default_rng(0)
    data = rng.random((32, 128)).astype(np.float32)
    indices = nisa.run(NASM, inputs={"data_in": data}, outputs=["indices_tensor"], args=["--strict"])["indices_tensor"]
    if indices.shape != (32, 8) or indices.dtype != np.uint32:
        raise Mismatch(f"shape {indices.shape} dtype {indices.dtype}, expected (32, 8) uint32")
    if not (np.all(indices >= 0) and np.all(indices < 128)):
        raise Mismatch("indices outside [0, 128)")
    if not np.all(np.diff(indices.astype(np.int64), axis=1) != 0):
        raise Mismatch("indices should be unique")
    nisa.equal("indices_tensor", indices, np.argsort(-data, axis=1, kind="stable")[:, :8].astype(np.uint32))


DUPLICATES = """
.hbm data_in f32 [2, 11] input
.hbm vals_in f32 [2, 8] input
.hbm idx32 u32 [2, 8] output
.hbm idx16 u16 [2, 8] output
.sbuf data f32 [2, 11]
.sbuf vals f32 [2, 8]
.sbuf i32t u32 [2, 8]
.sbuf i16t u16 [2, 8]
dma_copy dst=data, src=data_in
dma_copy dst=vals, src=vals_in
nc_find_index8 dst=i32t, data=data, vals=vals
nc_find_index8 dst=i16t, data=data, vals=vals
dma_copy dst=idx32, src=i32t
dma_copy dst=idx16, src=i16t
"""


def test_duplicates_and_missing(nisa):
    """Docstrings: first occurrence; duplicate vals take their matches in
    ascending order (nc_match_replace8's docstring contrasts the two); a value
    not present gives the all-ones sentinel."""
    data = np.array([[1, 2, 3, 4, 8, 8, 8, 8, 8, 8, 8],
                     [5, 6, 7, 5, 6, 7, 0, -0.0, 1, 2, 3]], dtype=np.float32)
    vals = np.array([[3, 8, 8, 8, 8, 8, 8, 8],
                     [5, 5, 5, 99, -0.0, 0, 0, 3]], dtype=np.float32)
    out = nisa.run(DUPLICATES, inputs={"data_in": data, "vals_in": vals}, outputs=["idx32", "idx16"], args=["--strict"])
    miss = 0xFFFFFFFF
    nisa.equal("idx32", out["idx32"], np.array([[2, 4, 5, 6, 7, 8, 9, 10], [0, 3, miss, miss, 6, 7, miss, 10]], dtype=np.uint32))
    nisa.equal("idx16", out["idx16"], np.array([[2, 4, 5, 6, 7, 8, 9, 10], [0, 3, 0xFFFF, 0xFFFF, 6, 7, 0xFFFF, 10]], dtype=np.uint16))


if __name__ == "__main__":
    main(globals())
