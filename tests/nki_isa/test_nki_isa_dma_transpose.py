#!/usr/bin/python3
"""NKI 0.6 nki/test/test_nki_isa_dma_transpose.py, re-expressed (S11.1,
docs/SEMANTICS.md): a [16, 128] float16 tile transposed by DMA from HBM to
SBUF and from SBUF to SBUF, with dge_mode unknown and hwdge.
Golden (the test's own): np.allclose(dst, np.transpose(src)).
The test's indirect (gather) case is marked xfail upstream and needs dynamic
indices, which nisa does not model; the 3-D and 4-D forms of the docstring
are checked against np.transpose with the docstring's axes."""
import numpy as np

from harness import main

NASM_2D = """
.hbm a f16 [16, 128] input
.hbm b_hbm f16 [128, 16] output
.hbm b_sb f16 [128, 16] output
.hbm b_hbm_dge f16 [128, 16] output
.hbm b_sb_dge f16 [128, 16] output
.sbuf a_sb f16 [16, 128]
.sbuf t0 f16 [128, 16]
.sbuf t1 f16 [128, 16]
.sbuf t2 f16 [128, 16]
.sbuf t3 f16 [128, 16]
dma_transpose dst=t0, src=a
dma_copy dst=b_hbm, src=t0
dma_copy dst=a_sb, src=a
dma_transpose dst=t1, src=a_sb
dma_copy dst=b_sb, src=t1
dma_transpose dst=t2, src=a, dge_mode=hwdge
dma_copy dst=b_hbm_dge, src=t2
dma_transpose dst=t3, src=a_sb, axes=[1, 0], dge_mode=hwdge
dma_copy dst=b_sb_dge, src=t3
"""


def test_dma_transpose_2d(nisa):
    rng = np.random.RandomState(0)
    src = rng.random_sample([16, 128]).astype(np.float16) * 100
    dst_golden = np.transpose(src)
    out = nisa.run(NASM_2D, inputs={"a": src})
    for name in ("b_hbm", "b_sb", "b_hbm_dge", "b_sb_dge"):
        # the test's np.allclose; a transpose moves bits, so they are equal
        nisa.close(name, out[name], dst_golden, rtol=1e-5, atol=1e-8)
        nisa.equal(name + " bits", out[name].view(np.uint16), dst_golden.view(np.uint16))


NASM_HIGHER = """
.hbm s3 u16 [64, 4, 32] input
.hbm d3 u16 [32, 4, 64] output
.hbm s4 bf16 [8, 3, 5, 16] input
.hbm d4 bf16 [16, 3, 5, 8] output
.sbuf t3 u16 [32, 4, 64]
.sbuf t4 bf16 [16, 15, 8]
dma_transpose dst=t3, src=s3, axes=[2, 1, 0]
dma_copy dst=d3, src=t3
dma_transpose dst=t4, src=s4, axes=[3, 1, 2, 0]
dma_copy dst=d4, src=t4.ap(pattern=[[120, 16], [40, 3], [8, 5], [1, 8]], offset=0)
"""


def test_dma_transpose_3d_4d(nisa):
    s3 = np.arange(64 * 4 * 32).reshape(64, 4, 32).astype(np.uint16)  # the test's arange source
    s4 = np.random.RandomState(1).standard_normal([8, 3, 5, 16]).astype(np.float32)
    s4_bits = (s4.view(np.uint32) >> 16).astype(np.uint16)  # bfloat16 bit patterns
    s4_bf16 = (s4_bits.astype(np.uint32) << 16).view(np.float32)
    out = nisa.run(NASM_HIGHER, inputs={"s3": s3, "s4": s4_bf16})
    nisa.equal("d3", out["d3"], np.transpose(s3, axes=(2, 1, 0)))
    nisa.equal("d4", out["d4"], np.transpose(s4_bf16, axes=(3, 1, 2, 0)))


NASM_F32 = """
.hbm a f32 [48, 96] input = 0
.hbm d f32 [96, 48] output
.sbuf t f32 [96, 48]
dma_transpose dst=t, src=a
dma_copy dst=d, src=t
"""


def test_dma_transpose_4_byte_bits(nisa):
    # nki-library's attention_cte transposes float32 q by DMA: 4-byte data moves bit for bit
    # (a NaN payload and -0.0 included), dst[j, i] = src[i, j].
    bits = np.random.RandomState(7).randint(0, 2**32, size=(48, 96), dtype=np.uint64).astype(np.uint32)
    bits[0, 0], bits[1, 2] = 0x7FC01234, 0x80000000
    out = nisa.run(NASM_F32, inputs={"a": bits.view(np.float32)})
    nisa.equal("d", out["d"].view(np.uint32), bits.T)


BAD_AXES = """
.hbm a f16 [16, 128] input = 0
.sbuf t f16 [128, 16]
dma_transpose dst=t, src=a, axes=[2, 1, 0]
"""

BAD_DTYPE = """
.hbm a u8 [16, 128] input = 0
.sbuf t u8 [128, 16]
dma_transpose dst=t, src=a
"""


def test_dma_transpose_rejects(nisa):
    # exit 2 (bad input) at assembly: axes of another rank; a 1-byte dtype (NKI: 2 bytes; 4 as nki-library uses)
    err = nisa.run(BAD_AXES, expect_status=2)
    assert "must be [1, 0]" in err, err
    err = nisa.run(BAD_DTYPE, expect_status=2)
    assert "u8" in err, err


if __name__ == "__main__":
    main(globals())
