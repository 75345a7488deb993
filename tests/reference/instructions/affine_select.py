"""`affine_select` (GpSimd), docs/SEMANTICS.md S4.21:
the reference model's semantics and its random instances."""
import numpy as np

from gen_builder import FP32_MIN
from gen_common import any_dtype, Block, COMPARE_SPELLINGS, factor_shape, spelled
from ref_common import COMPARE, F32
import ref_dtypes

RULE = "S4.21"


# ---- semantics ----

def affine_select(m, o):
    """S4.21, NKI 0.6's docstring loop: affine_value as iota's pattern form (int32, wrapping);
    dst = on_true_tile where cmp_op(affine_value, 0), else on_false_value (float32, cast to dst)."""
    dst, on_true = o["dst"], o["on_true_tile"]
    p_count, f_count = m.read_raw(dst, check=False).shape
    steps = np.array([s for s, _ in o["pattern"]], dtype=np.int64)
    nums = [n for _, n in o["pattern"]]
    assert int(np.prod(nums)) == f_count, "pattern does not cover dst"
    index = np.indices(nums).reshape(len(nums), -1)
    free = (steps[:, None] * index).sum(axis=0)
    channel = np.arange(p_count, dtype=np.int64)[:, None] * int(o["channel_multiplier"])
    value = int(o.get("offset", 0)) + channel + free[None, :]
    value = (value + 2 ** 31) % 2 ** 32 - 2 ** 31  # int32 wrap-around
    predicate = COMPARE[o["cmp_op"]](value, 0)
    on_false = np.full((p_count, f_count), F32(o["on_false_value"]), dtype=F32)
    if m.dtype(on_true) == m.dtype(dst):  # selected elements keep their bits
        raw = m.read_raw(on_true)
        false_bits = ref_dtypes.encode(m.dtype(dst), on_false).astype(raw.dtype)
        m.write_raw(dst, np.where(predicate, raw, false_bits))
    else:  # through float32
        m.write(dst, np.where(predicate, m.read(on_true), on_false).astype(F32))


# ---- lockstep allowances (lockstep.py) ----

KEEPS_NAN_PAYLOAD = "on_true_tile"


# ---- random programs ----

def emit_affine_select(b):
    """nki.isa.affine_select: iota's int32 affine value compared with 0 selects (S4.21)."""
    s, c = b.lanes()
    free = b.free_shape(64)
    n = int(np.prod(free))
    pattern = [[int(b.rng.integers(-6, 7)), num] for num in factor_shape(b, n, b.pick([1, 2, 3, 4]))]
    odt = any_dtype(b)
    on_true = b.tile(odt, s, c, free, "sbuf")
    b.load(on_true, b.values(odt, (c, n), -20, 20, specials=b.chance(0.2)))
    same = b.chance(0.5)
    dst = on_true if same and b.chance(0.3) else b.tile(odt if same else any_dtype(b), s, c, free, "sbuf")
    on_false = b.pick([FP32_MIN, 0.0, -1.0, 7.5, float(b.values("f32", (1,), -100, 100)[0])])
    ops = {"dst": dst, "pattern": pattern, "channel_multiplier": int(b.rng.integers(-4, 5)), "on_true_tile": on_true,
           "on_false_value": on_false}
    if b.chance(0.8):
        cmp = b.pick(list(COMPARE_SPELLINGS) + ["not_equal"])
        ops["cmp_op"] = spelled(b, {**COMPARE_SPELLINGS, "not_equal": ["not_equal", "ne"]}, cmp)
    if b.chance(0.7):
        ops["offset"] = int(b.rng.integers(-40, 41))
    b.instr("affine_select", **ops)
    b.store(dst)


BLOCKS = [Block(emit_affine_select, 0.6, order=22, lockstep=1.1)]
