"""`memset` (Vector), docs/SEMANTICS.md S4.9:
the reference model's semantics and its random instances."""
import numpy as np

from gen_builder import FP32_MIN, Tile
from gen_common import any_dtype, Block, compute_mem, INTS
from ref_common import F32
import ref_dtypes

RULE = "S4.9"


# ---- semantics ----

def memset(m, o):
    dst, value = o["dst"], o["value"]
    shape = (m.partitions(dst), -1)
    n = m.read_raw(dst, check=False).size
    if ref_dtypes.is_float(m.dtype(dst)):
        m.write(dst, np.full(n, F32(value), dtype=F32).reshape(shape))
    else:  # exact int32 for integer tiles (LANGUAGE.md 2.3)
        m.write_raw(dst, ref_dtypes.encode_int(m.dtype(dst), np.full(n, int(value))).reshape(shape))


# ---- random programs ----

def emit_memset(b):
    s, c = b.lanes()
    dtype = any_dtype(b)
    mem = compute_mem(b)
    t = b.tile(dtype, s, c, b.free_shape(), mem)
    if b.chance(0.5):
        b.load(t, b.values(dtype, (c, t.elems)))
    target = t
    if b.chance(0.3) and c > 1:
        ss, cc = b.sub_lanes(s, c)
        target = Tile(t.name, dtype, t.mem, ss, cc, t.free, False, t.col_offset, t.windowed, t.decl_free)  # aligned sub-range (S1.5)
    if dtype in INTS:
        value = int(b.values(dtype, (1,))[0])
    else:
        value = b.pick([float(b.values("f32", (1,), -100, 100)[0]), FP32_MIN, float("inf"), -0.0,
                        300.0, 500.0, 70000.0, 1.00390625, 0.1, -2.5])
    b.instr("memset", dst=target, value=value)
    b.store(t)


BLOCKS = [Block(emit_memset, 1.0, order=1, lockstep=0.2)]
