"""`iota` (GpSimd), docs/SEMANTICS.md S4.8:
the reference model's semantics and its random instances."""
import numpy as np

from gen_common import any_dtype, Block, factor_shape, INTS
from ref_common import F32
import ref_dtypes

RULE = "S4.8"


# ---- semantics ----

def iota(m, o):
    """dst[p, i] = base + p*partition_step + i*free_step, p and i relative to the tile
    (base 0, partition_step 0, free_step 1 when absent); NKI 0.6's form when `pattern` is given."""
    if "pattern" in o:
        return iota_pattern(m, o)
    o = {"base": 0, "partition_step": 0, "free_step": 1, **o}
    dst = o["dst"]
    p_count, f_count = m.read_raw(dst, check=False).shape
    p = np.arange(p_count).reshape(-1, 1)
    i = np.arange(f_count).reshape(1, -1)
    if ref_dtypes.is_float(m.dtype(dst)):
        base, ps, fs = (float(F32(o[k])) for k in ("base", "partition_step", "free_step"))
        m.write(dst, (base + p * ps + i * fs).astype(F32))
    else:
        base, ps, fs = (int(o[k]) for k in ("base", "partition_step", "free_step"))
        m.write_raw(dst, ref_dtypes.encode_int(m.dtype(dst), base + p * ps + i * fs))


def iota_pattern(m, o):
    """NKI 0.6 nki.isa.iota: for channel_id (the tile's partition) and every index of the
    pattern [[step_w, num_w], ...] (last innermost, read row-major over dst's free elements):
    value = offset + channel_id*channel_multiplier + sum(i_k*step_k) in 32-bit integer
    arithmetic (S7; wrapping), then cast to dst's dtype (integers saturate, floats via float32)."""
    dst = o["dst"]
    p_count, f_count = m.read_raw(dst, check=False).shape
    steps = np.array([s for s, _ in o["pattern"]], dtype=np.int64)
    nums = [n for _, n in o["pattern"]]
    assert int(np.prod(nums)) == f_count, "pattern does not cover dst"
    index = np.indices(nums).reshape(len(nums), -1)  # [k, flat free index]
    free = (steps[:, None] * index).sum(axis=0)
    channel = np.arange(p_count, dtype=np.int64)[:, None] * int(o.get("channel_multiplier", 0))
    value = int(o.get("offset", 0)) + channel + free[None, :]
    value = (value + 2 ** 31) % 2 ** 32 - 2 ** 31  # int32 wrap-around
    m.write_raw(dst, ref_dtypes.encode_int(m.dtype(dst), value))


# ---- random programs ----

def emit_iota(b):
    s, c = b.lanes()
    dtype = any_dtype(b)
    free = b.free_shape(64)
    n = int(np.prod(free))
    if dtype in INTS:
        base, ps, fs = int(b.rng.integers(-40, 41)), int(b.rng.integers(-2, 4)), int(b.rng.integers(-2, 4))
        lo = min(base, base + (c - 1) * ps) + min(0, (n - 1) * fs)
        hi = max(base, base + (c - 1) * ps) + max(0, (n - 1) * fs)
        limits = {"i8": (-128, 127), "i16": (-32768, 32767), "u8": (0, 255), "u16": (0, 65535)}
        a, z = limits.get(dtype, (-2 ** 31, 2 ** 31 - 1) if dtype == "i32" else (0, 2 ** 32 - 1))
        if lo < a or hi > z:
            dtype = "i32"
    else:
        base = float(b.pick([0, 1, -3.5, 10.25, 100]))
        ps = float(b.pick([0, 1, -1, 0.5, 2, 0.25]))
        fs = float(b.pick([1, 0, 0.5, -0.25, 3]))
    t = b.tile(dtype, s, c, free, "sbuf")
    ops = {"dst": t}
    if base != 0 or b.chance(0.5):
        ops["base"] = base
    if ps != 0 or b.chance(0.5):
        ops["partition_step"] = ps
    if fs != 1 or b.chance(0.5):
        ops["free_step"] = fs
    b.instr("iota", **ops)
    b.store(t)


def emit_iota_pattern(b):
    """nki.isa.iota(dst, pattern=[[step, num], ...], offset, channel_multiplier): int32 values."""
    s, c = b.lanes()
    dtype = b.pick(["i32", "i32", "f32", "i16", "u8", "bf16", "f16"])
    free = b.free_shape(64)
    n = int(np.prod(free))
    pattern = [[int(b.rng.integers(-6, 7)), num] for num in factor_shape(b, n, b.pick([1, 2, 3, 4]))]
    t = b.tile(dtype, s, c, free, "sbuf")
    ops = {"dst": t, "pattern": pattern}
    if b.chance(0.7):
        ops["offset"] = int(b.rng.integers(-300, 301))
    if b.chance(0.7):
        ops["channel_multiplier"] = int(b.rng.integers(-4, 5))
    b.instr("iota", **ops)
    b.store(t)


BLOCKS = [Block(emit_iota, 0.8, order=2, lockstep=0.6), Block(emit_iota_pattern, 0.6, order=16, lockstep=0.3)]
