"""`reciprocal` (Vector), docs/SEMANTICS.md S4.27:
the reference model's semantics and its random instances."""
import numpy as np

from gen_common import Block, compute_mem, float_dtype, general_data, INTS
from ref_common import F32

RULE = "S4.27"


# ---- semantics ----

def reciprocal(m, o):
    """S4.27: 1.0 / data in float32."""
    with np.errstate(all="ignore"):
        m.write(o["dst"], (F32(1) / m.read(o["data"])).astype(F32))


# ---- random programs ----

def emit_reciprocal(b):
    """nki.isa.reciprocal (S4.27): 1.0 / data in float32."""
    s, c, free, ddt, data = general_data(b)
    dst = data if b.chance(0.15) and ddt not in INTS else b.tile(float_dtype(b), b.shifted(s, c), c, free,
                                                                   compute_mem(b))
    b.instr("reciprocal", dst=dst, data=data)
    b.store(dst)


BLOCKS = [Block(emit_reciprocal, 0.4, order=28, lockstep=0.6)]
