"""`sequence_bounds` (GpSimd), docs/SEMANTICS.md S4.35:
the reference model's semantics and its random instances."""
import numpy as np

from gen_common import Block
from ref_common import F32
import ref_dtypes

RULE = "S4.35"


# ---- semantics ----

def sequence_bounds(m, o):
    """S4.35: NKI's unit-test golden formula (compute_sequence_bounds) on one partition."""
    ids_view, dst = o["segment_ids"], o["dst"]
    if m.dtype(ids_view) == "f32":
        seq = m.read(ids_view)[0]
    else:
        seq = ref_dtypes.decode_exact("i32", m.read_raw(ids_view))[0].astype(np.int64)
    n = len(seq)
    lo, hi = [0] * n, [0] * n
    lo[0] = 0 if seq[0] != 0 else n
    for i in range(1, n):
        lo[i] = n if seq[i] == 0 else lo[i - 1] if seq[i] == seq[i - 1] else i
    hi[-1] = n if seq[-1] != 0 else -1
    for i in range(n - 2, -1, -1):
        hi[i] = -1 if seq[i] == 0 else hi[i + 1] if seq[i] == seq[i + 1] else i + 1
    bounds = np.array([lo + hi])
    if m.dtype(dst) == "f32":
        m.write(dst, bounds.astype(F32))
    else:
        m.write_raw(dst, ref_dtypes.encode_int("i32", bounds))


# ---- random programs ----

def emit_sequence_bounds(b):
    n = int(b.rng.integers(1, 200))
    idt = b.pick(["f32", "i32"])
    ids = b.tile(idt, 0, 1, [n], "sbuf")
    segments = np.sort(b.rng.integers(0, max(2, n // 3), size=n))
    if b.chance(0.5):  # unsorted IDs, padding in between
        segments = b.rng.integers(0, 4, size=n)
    b.load(ids, segments.reshape(1, n).astype(np.float64))
    dst = b.tile(b.pick(["f32", "i32"]), 0, 1, [2, n], "sbuf")
    b.instr("sequence_bounds", dst=dst, segment_ids=ids)
    b.store(dst)


BLOCKS = [Block(emit_sequence_bounds, 0.4, order=35, lockstep=1.1)]
