"""`max8` (Vector), docs/SEMANTICS.md S4.32:
the reference model's semantics and its random instances."""
import numpy as np

from gen_common import any_dtype, Block, compute_mem, free_of_eight_or_more, selection_data
from ref_common import F32, ranked

RULE = "S4.32"


# ---- semantics ----

def max8(m, o):
    """S4.32: the 8 largest per partition, descending (NaN largest)."""
    x = m.read(o["src"])
    m.write(o["dst"], np.array([[row[i] for i in ranked(row)[:8]] for row in x], dtype=F32))


# ---- random programs ----

def emit_max8(b):
    s, c = b.lanes()
    free, n = free_of_eight_or_more(b, 200)
    sdt = any_dtype(b)
    src = b.tile(sdt, s, c, free, compute_mem(b))
    b.load(src, selection_data(b, sdt, c, n))
    dst = b.tile(any_dtype(b) if b.chance(0.3) else sdt, s, c, [8], compute_mem(b))
    b.instr("max8", dst=dst, src=src)
    b.store(dst)


BLOCKS = [Block(emit_max8, 0.5, order=32, lockstep=1.2)]
