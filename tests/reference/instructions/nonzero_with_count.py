"""`nonzero_with_count` (GpSimd, v3+), docs/SEMANTICS.md S4.1:
the reference model's semantics and its random instances."""
import numpy as np

from gen_common import Block, has_v3
import ref_dtypes

RULE = "S4.1"


# ---- semantics ----

def nonzero_with_count(m, o):
    """S4.1: only partitions 16k are read and written; the rest of dst is unchanged."""
    src, dst = o["src"], o["dst"]
    values = ref_dtypes.decode_exact(m.dtype(src), m.read_raw(src, check=False))
    out = m.read_raw(dst, check=False).astype(np.int64)
    t = values.shape[1]
    core_rows = [row for row, phys in enumerate(m.lanes(src)) if phys % 16 == 0]
    m.check_written(src, core_rows)
    for row in core_rows:
        nonzero_indices = [i + o["index_offset"] for i in range(t) if values[row, i] != 0]  # NaN != 0 holds
        out[row, :] = nonzero_indices + [o["padding_val"]] * (t - len(nonzero_indices)) + [len(nonzero_indices)]
    written = np.zeros(out.shape, dtype=bool)
    written[core_rows] = True
    m.write_raw(dst, ref_dtypes.encode_int("i32", out), written)


# ---- random programs ----

def emit_nonzero_with_count(b):
    s, c = b.lanes()
    dtype = b.pick(["f32", "i32"])
    free = b.free_shape(40)
    n = int(np.prod(free))
    src = b.tile(dtype, s, c, free, "sbuf")
    v = b.values(dtype, (c, n), -5, 5, irange=(-9, 9))
    v = np.where(b.rng.random((c, n)) < b.pick([0.3, 0.6, 0.9, 1.0]), 0, v)
    if dtype == "f32":
        r = b.rng.random((c, n))
        v = np.where(r < 0.05, -0.0, v)      # S4.1: -0.0 counts as zero
        v = np.where(r > 0.99, np.nan, v)    # NaN counts as nonzero
    b.load(src, v)
    dst = b.tile("i32", s, c, [n + 1], "sbuf")
    r = b.rng.random()
    if r < 0.4:
        b.instr("memset", dst=dst, value=int(b.rng.integers(-5, 100)))
    elif r < 0.7:
        b.load(dst, b.values("i32", (c, n + 1)))
    ops = {"dst": dst, "src": src}
    if b.chance(0.7):
        ops["index_offset"] = int(b.pick([0, 16, -3, int(b.rng.integers(-100000, 100000))]))
    if b.chance(0.7):
        ops["padding_val"] = int(b.pick([-1, 0, 7, int(b.rng.integers(-1000, 1000))]))
    b.instr("nonzero_with_count", **ops)
    b.store(dst)


BLOCKS = [Block(emit_nonzero_with_count, 1.0, needs=has_v3, order=3, lockstep=1.2)]
