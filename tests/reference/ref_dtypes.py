"""Element types of the modeled machine, written independently in NumPy (S2).

Every dtype has a *raw* storage form (the bits as an unsigned or signed NumPy
integer array, or float16/float32 bits) and a *value* form used by the engines:
float32 for float types, float32 as well for integers when an engine does math
(S2.1: every input is converted to float32 first).

    decode(name, raw)   -> float32 values
    encode(name, f32)   -> raw bits, rounding to nearest even (S2.2, S2.3)
    encode_int(name, i) -> raw bits from exact integers (memset/iota on integer tiles)
"""
import numpy as np

# name -> (raw NumPy dtype, class)
DTYPES = {
    "f32": (np.uint32, "float"),
    "bf16": (np.uint16, "float"),
    "f16": (np.uint16, "float"),
    "tf32": (np.uint32, "float"),
    "fp8e4m3": (np.uint8, "float"),
    "fp8e4m3fn": (np.uint8, "float"),
    "fp8e5m2": (np.uint8, "float"),
    "i8": (np.int8, "int"),
    "i16": (np.int16, "int"),
    "i32": (np.int32, "int"),
    "u8": (np.uint8, "int"),
    "u16": (np.uint16, "int"),
    "u32": (np.uint32, "int"),
    # MX (S13): packed values and e8m0 scales, kept as their bits (ref_mx.py decodes them)
    "fp8e4m3fn_x4": (np.uint32, "mx"),
    "fp8e5m2_x4": (np.uint32, "mx"),
    "fp4e2m1fn_x4": (np.uint16, "mx"),
    "fp8e8m0": (np.uint8, "mx"),
}

ALIASES = {
    "float32": "f32", "fp32": "f32", "bfloat16": "bf16", "float16": "f16", "fp16": "f16",
    "tfloat32": "tf32", "float8_e4m3": "fp8e4m3", "float8_e4m3fn": "fp8e4m3fn",
    "float8_e5m2": "fp8e5m2", "int8": "i8", "int16": "i16", "int32": "i32",
    "uint8": "u8", "bool": "u8", "uint16": "u16", "uint32": "u32",
    "float8_e4m3fn_x4": "fp8e4m3fn_x4", "float8_e5m2_x4": "fp8e5m2_x4", "float4_e2m1fn_x4": "fp4e2m1fn_x4",
    "float8_e8m0fnu": "fp8e8m0",
}

FLOAT_TYPES = [n for n, (_, c) in DTYPES.items() if c == "float"]
INT_TYPES = [n for n, (_, c) in DTYPES.items() if c == "int"]

# .npy form of each dtype (LANGUAGE.md 3: bf16, tf32 and fp8 travel as float32).
NPY_DTYPE = {
    "f32": np.float32, "bf16": np.float32, "f16": np.float16, "tf32": np.float32,
    "fp8e4m3": np.float32, "fp8e4m3fn": np.float32, "fp8e5m2": np.float32,
    "i8": np.int8, "i16": np.int16, "i32": np.int32, "u8": np.uint8, "u16": np.uint16, "u32": np.uint32,
    "fp8e4m3fn_x4": np.uint32, "fp8e5m2_x4": np.uint32, "fp4e2m1fn_x4": np.uint16, "fp8e8m0": np.uint8,
}


def canonical(name):
    name = ALIASES.get(name, name)
    if name not in DTYPES:
        raise ValueError(f"unknown dtype {name}")
    return name


def itemsize(name):
    return np.dtype(DTYPES[name][0]).itemsize


def is_float(name):
    return DTYPES[name][1] == "float"


def raw_dtype(name):
    return DTYPES[name][0]


# ---- fp8: a table of all 256 codes, rounding by nearest-even search (S2.2) ----

class Fp8Format:
    """A 1-sign, E-exponent, M-mantissa minifloat."""

    def __init__(self, ebits, mbits, bias, ieee_specials, saturate):
        self.ebits, self.mbits, self.bias = ebits, mbits, bias
        self.ieee_specials = ieee_specials  # all-ones exponent = inf/NaN (else only S.1111.111 is NaN)
        self.saturate = saturate            # overflow to +-max instead of inf
        self.table = np.array([self._code_value(c) for c in range(256)], dtype=np.float64)
        pos = self.table[:128]
        finite = np.isfinite(pos)
        self.max_code = int(np.nonzero(finite)[0].max())
        self.pos_values = pos[: self.max_code + 1]  # increasing with the code
        self.max_value = self.pos_values[-1]
        ulp_at_max = self.pos_values[-1] - self.pos_values[-2]
        self.overflow_threshold = self.max_value + ulp_at_max / 2
        self.nan_code = 0x7F
        self.inf_code = 0x7F & ~((1 << mbits) - 1) if ieee_specials else None

    def _code_value(self, code):
        sign = -1.0 if code & 0x80 else 1.0
        e = (code >> self.mbits) & ((1 << self.ebits) - 1)
        m = code & ((1 << self.mbits) - 1)
        all_ones = (1 << self.ebits) - 1
        if self.ieee_specials and e == all_ones:
            return sign * np.inf if m == 0 else np.nan
        if not self.ieee_specials and e == all_ones and m == (1 << self.mbits) - 1:
            return np.nan
        if e == 0:  # subnormal (kept, S2.2)
            return sign * (m / (1 << self.mbits)) * 2.0 ** (1 - self.bias)
        return sign * (1 + m / (1 << self.mbits)) * 2.0 ** (e - self.bias)

    def decode(self, raw):
        return self.table[raw.astype(np.int64)].astype(np.float32)

    def encode(self, x):
        x = np.asarray(x, dtype=np.float32).astype(np.float64)
        sign = np.signbit(x).astype(np.uint8) << 7
        a = np.abs(x)
        vals = self.pos_values
        idx = np.searchsorted(vals, np.minimum(a, self.max_value), side="left")
        idx = np.clip(idx, 0, self.max_code)
        lo = np.clip(idx - 1, 0, self.max_code)
        exact = vals[idx] == a
        d_lo = a - vals[lo]
        d_hi = vals[idx] - a
        pick_hi = exact | (d_hi < d_lo) | ((d_hi == d_lo) & (idx % 2 == 0))
        code = np.where(pick_hi, idx, lo)
        over = a > self.max_value
        if self.saturate:
            code = np.where(over, self.max_code, code)
        else:
            code = np.where(over & (a >= self.overflow_threshold), self.inf_code, code)
            code = np.where(over & (a < self.overflow_threshold), self.max_code, code)
        code = np.where(np.isnan(a), self.nan_code, code)
        return (code.astype(np.uint8) | sign).astype(np.uint8)


FP8 = {
    "fp8e4m3": Fp8Format(4, 3, 7, ieee_specials=True, saturate=False),     # max 240, overflow -> inf
    "fp8e4m3fn": Fp8Format(4, 3, 7, ieee_specials=False, saturate=True),   # max 448, saturates, no inf
    "fp8e5m2": Fp8Format(5, 2, 15, ieee_specials=True, saturate=False),    # max 57344
}


# ---- 32-bit-exponent formats by rounding away low mantissa bits of float32 ----

def _round_f32_bits(x, drop_bits):
    """Round float32 to nearest even keeping 23 - drop_bits mantissa bits; returns uint32 bits."""
    u = np.asarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)
    half = (1 << (drop_bits - 1)) - 1
    lsb = (u >> drop_bits) & 1
    rounded = ((u + half + lsb) >> drop_bits) << drop_bits
    nan = np.isnan(np.asarray(x, dtype=np.float32))
    quiet = (u | (1 << 22)) >> drop_bits << drop_bits  # keep NaN a NaN after truncation
    return np.where(nan, quiet, rounded).astype(np.uint32)


def decode(name, raw):
    """Raw bits -> float32 values (integers converted to nearest float32)."""
    raw = np.asarray(raw)
    if name == "f32" or name == "tf32":
        return raw.astype(np.uint32).view(np.float32)
    if name == "bf16":
        return (raw.astype(np.uint32) << 16).view(np.float32)
    if name == "f16":
        return raw.astype(np.uint16).view(np.float16).astype(np.float32)
    if name in FP8:
        return FP8[name].decode(raw)
    return raw.astype(np.float64).astype(np.float32)


def decode_exact(name, raw):
    """Raw bits -> values without loss: float64 for floats, int64 for integers."""
    if is_float(name):
        return decode(name, raw).astype(np.float64)
    return np.asarray(raw).astype(np.int64)


def encode(name, x):
    """float32 values -> raw bits of `name` (S2.2 round to nearest even; S2.3 ints)."""
    x = np.asarray(x, dtype=np.float32)
    if name == "f32":
        return x.view(np.uint32).copy()
    if name == "tf32":
        return _round_f32_bits(x, 13)
    if name == "bf16":
        return (_round_f32_bits(x, 16) >> 16).astype(np.uint16)
    if name == "f16":
        with np.errstate(over="ignore"):
            return x.astype(np.float16).view(np.uint16)
    if name in FP8:
        return FP8[name].encode(x)
    info = np.iinfo(raw_dtype(name))
    v = np.nan_to_num(x.astype(np.float64), nan=0.0, posinf=np.inf, neginf=-np.inf)
    v = np.clip(np.rint(v), info.min, info.max)  # round half even, saturate, NaN -> 0
    return v.astype(raw_dtype(name))


def encode_int(name, values):
    """Exact integers -> raw bits (saturating to the dtype's range); float dtypes go via float32."""
    values = np.asarray(values, dtype=np.int64)
    if is_float(name):
        return encode(name, values.astype(np.float64).astype(np.float32))
    info = np.iinfo(raw_dtype(name))
    return np.clip(values, info.min, info.max).astype(raw_dtype(name))


def round_to(name, x):
    """float32 values rounded through `name` and back (what a store then a load gives)."""
    return decode(name, encode(name, x))


def to_npy(name, raw):
    """Raw bits -> the array written to .npy for this dtype."""
    if is_float(name):
        if name == "f16":
            return np.asarray(raw).astype(np.uint16).view(np.float16)
        return decode(name, raw)
    return np.asarray(raw).astype(raw_dtype(name))


def from_npy(name, arr):
    """A .npy array -> raw bits; bf16/tf32/fp8 come as float32, rounded to nearest even."""
    arr = np.asarray(arr)
    if name == "f16":
        return arr.astype(np.float16).view(np.uint16)
    if is_float(name):
        return encode(name, arr.astype(np.float32))
    return arr.astype(raw_dtype(name))
