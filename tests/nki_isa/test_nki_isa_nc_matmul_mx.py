#!/usr/bin/python3
"""quantize_mx and nc_matmul_mx (docs/SEMANTICS.md S13): NKI 0.6 has no unit
test for them; this follows nki-samples' tutorial mxfp-matmul (mx_kernels.py,
mx_cpu_utils.py): quantize float16 tiles with quantize_mx, multiply them with
nc_matmul_mx, and check both against the tutorial's CPU formulas written out
here in NumPy: quantize_mx_golden with the docstring's block scale (largest
float32 exponent field of the 8x4 group minus (Emax - 1), twice OCP's), scales
read back through get_p_contiguous_scale's layout (group b in partition
32*(b//4) + b%4), and nc_matmul_mx_golden's einsum("kiq,kjq->ij") over the
dequantized values (value * 2^(scale - 127)). Packed tiles travel as uint32
(fp8 _x4) / uint16 (fp4 _x4) arrays, scales as uint8 (docs/LANGUAGE.md)."""
import numpy as np

from harness import main

EMAX = {"e4m3fn": 8, "e5m2": 15}
LARGEST = {"e4m3fn": 448.0, "e5m2": 57344.0}


def fp8_values(kind):
    """float64 value of every fp8 code (NaN for NaN/inf codes: never produced here)."""
    codes = np.arange(256)
    sign = np.where(codes & 0x80, -1.0, 1.0)
    if kind == "e4m3fn":
        e, m, bias, mbits = (codes >> 3) & 0xF, codes & 7, 7, 3
        special = (codes & 0x7F) == 0x7F
    else:
        e, m, bias, mbits = (codes >> 2) & 0x1F, codes & 3, 15, 2
        special = e == 31
    mag = np.where(e == 0, m / 2.0**mbits * 2.0 ** (1 - bias), (1 + m / 2.0**mbits) * 2.0 ** (e - bias))
    return np.where(special, np.nan, sign * mag)


def fp8_encode(kind, x):
    """Round to nearest fp8 code, ties to the even code (x finite, within range)."""
    table = fp8_values(kind)
    codes = np.array([c for c in range(128) if not np.isnan(table[c])])
    mags = table[codes]
    order = np.argsort(mags)
    codes, mags = codes[order], mags[order]
    a = np.abs(x).ravel()
    hi = np.clip(np.searchsorted(mags, a), 1, len(mags) - 1)
    lo = hi - 1
    dlo, dhi = a - mags[lo], mags[hi] - a
    pick = np.where(dlo < dhi, lo, np.where(dhi < dlo, hi, np.where(codes[lo] % 2 == 0, lo, hi)))
    out = codes[pick] | np.where(np.signbit(x.ravel()), 0x80, 0)
    return out.astype(np.uint8).reshape(x.shape)


def quantize_golden(kind, x):
    """quantize_mx_golden (docstring scale): packed uint32 [P, F/4], scales uint8 [P/8, F/4]."""
    p, f = x.shape
    exp = (x.astype(np.float32).view(np.uint32) >> 23) & 0xFF
    scale = np.clip(exp.reshape(p // 8, 8, f // 4, 4).max(axis=(1, 3)).astype(np.int64) - (EMAX[kind] - 1), 0, 254)
    factor = np.repeat(np.repeat(2.0 ** (scale - 127), 8, axis=0), 4, axis=1)
    q = np.clip(x.astype(np.float64) / factor, -LARGEST[kind], LARGEST[kind])
    return fp8_encode(kind, q).view(np.uint32), scale.astype(np.uint8)


def unpack(kind, packed):
    """Packed [P, F] -> float64 values [P, F, 4] (value j: byte j / nibble j)."""
    if kind == "e2m1fn":
        fp4 = np.array([0, 0.5, 1, 1.5, 2, 3, 4, 6, -0.0, -0.5, -1, -1.5, -2, -3, -4, -6])
        return fp4[np.stack([(packed >> (4 * j)) & 0xF for j in range(4)], axis=-1)]
    return fp8_values(kind)[packed.view(np.uint8).reshape(packed.shape + (4,))]


def contiguous_scale(hw_scale, partitions):
    """mx_cpu_utils.get_p_contiguous_scale."""
    return hw_scale[[i // 4 * 32 + i % 4 for i in range(partitions // 8)]]


def matmul_golden(st_kind, st, st_scale, mv_kind, mv, mv_scale):
    """nc_matmul_mx_golden: dequantize (value * 2^(scale - 127)), then einsum("kiq,kjq->ij")."""
    s = unpack(st_kind, st) * np.repeat(2.0 ** (st_scale.astype(np.float64) - 127), 8, axis=0)[:, :, None]
    m = unpack(mv_kind, mv) * np.repeat(2.0 ** (mv_scale.astype(np.float64) - 127), 8, axis=0)[:, :, None]
    return np.einsum("kiq,kjq->ij", s, m)


NASM_QUANTIZE_MATMUL = """
.arch trn3
.hbm a_in f16 [128, 128] input
.hbm b_in f16 [128, 256] input
.hbm aq_out float8_e4m3fn_x4 [128, 32] output
.hbm as_out float8_e8m0fnu [128, 32] output
.hbm bq_out float8_e5m2_x4 [128, 64] output
.hbm bs_out uint8 [128, 64] output
.hbm c_out f32 [32, 64] output
.sbuf a f16 [128, 128]
.sbuf b f16 [128, 256]
.sbuf aq float8_e4m3fn_x4 [128, 32]
.sbuf a_s float8_e8m0fnu [128, 32]
.sbuf bq float8_e5m2_x4 [128, 64]
.sbuf bs uint8 [128, 64]
.psum c_psum f32 [32, 64]
.sbuf c f32 [32, 64]
dma_copy dst=a, src=a_in
dma_copy dst=b, src=b_in
quantize_mx dst=aq, src=a, dst_scale=a_s
quantize_mx dst=bq, src=b, dst_scale=bs
nc_matmul_mx dst=c_psum, stationary=aq, moving=bq, stationary_scale=a_s, moving_scale=bs
tensor_copy dst=c, src=c_psum
dma_copy dst=aq_out, src=aq
dma_copy dst=as_out, src=a_s
dma_copy dst=bq_out, src=bq
dma_copy dst=bs_out, src=bs
dma_copy dst=c_out, src=c
"""


def test_quantize_mx_then_nc_matmul_mx(nisa):
    np.random.seed(0)
    a = (np.random.standard_normal([128, 128]) * 3).astype(np.float16)
    b = (np.random.standard_normal([128, 256]) * 1000).astype(np.float16)
    a[0:8, 0:4] = 0  # an all-zero group: scale 2^-127
    a[8:16, 4:8] *= np.float16(1e-4)  # a group of small values
    out = nisa.run(NASM_QUANTIZE_MATMUL, inputs={"a_in": a, "b_in": b}, outputs=["aq_out", "as_out", "bq_out", "bs_out", "c_out"])
    aq, a_scale = quantize_golden("e4m3fn", a.astype(np.float32))
    bq, b_scale = quantize_golden("e5m2", b.astype(np.float32))
    nisa.equal("aq_out", out["aq_out"], aq)
    nisa.equal("bq_out", out["bq_out"], bq)
    nisa.equal("as_out", contiguous_scale(out["as_out"], 128), a_scale)
    nisa.equal("bs_out", contiguous_scale(out["bs_out"], 128), b_scale)
    assert a_scale[0, 0] == 0 and out["as_out"][0, 0] == 0
    expected = matmul_golden("e4m3fn", aq, a_scale, "e5m2", bq, b_scale)
    nisa.close("c_out", out["c_out"], expected, rtol=1e-5, atol=1e-6 * np.abs(expected).max())


NASM_FP4 = """
.arch trn3
.hbm s_in float4_e2m1fn_x4 [64, 16] input
.hbm ss_in float8_e8m0fnu [36, 16] input
.hbm m_in float8_e4m3fn_x4 [64, 100] input
.hbm ms_in uint8 [36, 100] input
.hbm c_out f32 [16, 100] output
.hbm d_out bf16 [16, 100] output
.sbuf s float4_e2m1fn_x4 [64, 16]
.sbuf ss float8_e8m0fnu [36, 16]
.sbuf m float8_e4m3fn_x4 [64, 100]
.sbuf ms uint8 [36, 100]
.psum c_psum f32 [16, 100]
.psum d_psum bf16 [16, 100]
.sbuf c f32 [16, 100]
.sbuf d bf16 [16, 100]
dma_copy dst=s, src=s_in
dma_copy dst=ss, src=ss_in
dma_copy dst=m, src=m_in
dma_copy dst=ms, src=ms_in
nc_matmul_mx dst=c_psum, stationary=s, moving=m, stationary_scale=ss, moving_scale=ms, tile_position=[0, 0], tile_size=[64, 128]
nc_matmul_mx dst=c_psum, stationary=s, moving=m, stationary_scale=ss, moving_scale=ms
nc_matmul_mx dst=d_psum, stationary=s, moving=m, stationary_scale=ss, moving_scale=ms, accumulate=false
tensor_copy dst=c, src=c_psum
tensor_copy dst=d, src=d_psum
dma_copy dst=c_out, src=c
dma_copy dst=d_out, src=d
"""


def test_nc_matmul_mx_fp4_accumulate(nisa):
    rng = np.random.default_rng(1)
    s = rng.integers(0, 1 << 16, size=(64, 16), dtype=np.uint16)
    codes = rng.integers(0, 256, size=(64, 400), dtype=np.uint8)
    codes[(codes & 0x7F) == 0x7F] = 0x11  # no NaN codes
    m = codes.view(np.uint32)
    ss = np.full((36, 16), 0xEE, np.uint8)  # rows other than 0..3 and 32..35 are not scales
    ms = np.full((36, 100), 0xEE, np.uint8)
    for rows in (slice(0, 4), slice(32, 36)):
        ss[rows] = rng.integers(120, 134, size=(4, 16))
        ms[rows] = rng.integers(110, 125, size=(4, 100))
    out = nisa.run(NASM_FP4, inputs={"s_in": s, "ss_in": ss, "m_in": m, "ms_in": ms}, outputs=["c_out", "d_out"])
    expected = matmul_golden("e2m1fn", s, contiguous_scale(ss, 64), "e4m3fn", m, contiguous_scale(ms, 64))
    # second nc_matmul_mx accumulates (accumulate=None after the first wrote c_psum)
    nisa.close("c_out", out["c_out"], 2 * expected, rtol=1e-5, atol=1e-6 * np.abs(expected).max())
    nisa.close("d_out", out["d_out"], expected, rtol=1e-2, atol=1e-3 * np.abs(expected).max())


if __name__ == "__main__":
    main(globals())
