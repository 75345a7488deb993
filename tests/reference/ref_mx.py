"""MX (OCP Microscaling) values in NumPy, after nki-samples' tutorial
mxfp-matmul/mx_cpu_utils.py and NKI 0.6's quantize_mx docstring (SEMANTICS S13).

A packed [P, F] _x4 tile is the [P, 4F] value matrix (value j of element f is
value 4f + j: byte j of an fp8 _x4 element, bits 4j..4j+3 of an fp4 one). The
scales of data partitions 8b..8b+7 are in scale-tile partition 32*(b//4) + b%4.
"""
import numpy as np

import ref_dtypes

ELEMENT = {"fp8e4m3fn_x4": "fp8e4m3fn", "fp8e5m2_x4": "fp8e5m2"}
EMAX = {"fp8e4m3fn": 8, "fp8e5m2": 15}
LARGEST = {"fp8e4m3fn": 448.0, "fp8e5m2": 57344.0}
FP4 = np.array([0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0, -0.0, -0.5, -1.0, -1.5, -2.0, -3.0, -4.0, -6.0], dtype=np.float32)


def scale_rows(partitions):
    """Scale-tile partition of each group of 8 data partitions."""
    return [32 * (b // 4) + b % 4 for b in range(partitions // 8)]


def unpack(name, raw):
    """Packed bits [P, F] -> float32 values [P, 4F]."""
    raw = np.ascontiguousarray(raw)
    p = raw.shape[0]
    if name == "fp4e2m1fn_x4":
        bits = raw.astype(np.uint16)
        nibbles = np.stack([(bits >> (4 * j)) & 0xF for j in range(4)], axis=-1)
        return FP4[nibbles].reshape(p, -1)
    codes = raw.astype("<u4").view(np.uint8).reshape(p, -1)
    return ref_dtypes.decode(ELEMENT[name], codes)


def dequantize(name, raw, scale_bytes):
    """[P, 4F] float32: each value times 2^(e-127) of its group's scale (e = 255: NaN), rounded to float32."""
    values = unpack(name, raw).astype(np.float64)
    e = np.asarray(scale_bytes)[scale_rows(raw.shape[0])].astype(np.int64)  # [P/8, F]
    factor = np.where(e == 255, np.nan, np.ldexp(1.0, e - 127))
    factor = np.repeat(np.repeat(factor, 8, axis=0), 4, axis=1)
    with np.errstate(all="ignore"):
        return (values * factor).astype(np.float32)


def quantize(name, src):
    """src float32 [P, F] -> (packed uint32 [P, F/4], scale bytes [P/8, F/4]) per the docstring:
    e = (largest float32 exponent field of the group) - (Emax - 1), clipped to [0, 254]."""
    element = ELEMENT[name]
    src = np.asarray(src, dtype=np.float32)
    p, f = src.shape
    field = ((src.view(np.uint32) >> 23) & 0xFF).astype(np.int64)  # mx_cpu_utils.get_float32_exp
    block = field.reshape(p // 8, 8, f // 4, 4).max(axis=(1, 3))
    e = np.clip(block - (EMAX[element] - 1), 0, 254)
    factor = np.repeat(np.repeat(np.ldexp(1.0, 127 - e), 8, axis=0), 4, axis=1)
    with np.errstate(all="ignore"):
        q = src.astype(np.float64) * factor
    nan = np.isnan(src)
    q = np.where(nan, 0.0, np.clip(q, -LARGEST[element], LARGEST[element])).astype(np.float32)
    codes = ref_dtypes.encode(element, q).astype(np.uint8)
    codes = np.where(nan, np.where(np.signbit(src), 0xFF, 0x7F), codes).astype(np.uint8)  # one NaN code per sign
    return np.ascontiguousarray(codes).view("<u4").reshape(p, f // 4), e.astype(np.uint8)
