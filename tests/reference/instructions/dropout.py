"""`dropout` (Vector), docs/SEMANTICS.md S11.8:
the reference model's semantics and its random instances."""
import numpy as np

from gen_common import any_dtype, Block, compute_mem, scalar_or_column
from instructions.set_rng_seed import maybe_seed
from ref_common import draws
import ref_random

RULE = "S11.8"


# ---- semantics ----

def dropout(m, o):
    """S11.5: zero (all bits) where u < prob, data's bits elsewhere."""
    data = m.read_raw(o["data"])
    prob = m.column(o["prob"], data.shape[0])
    drop = ref_random.unit(draws(m, "vector", o["dst"])) < prob
    m.write_raw(o["dst"], np.where(drop, np.zeros_like(data), data))


# ---- lockstep allowances (lockstep.py) ----

KEEPS_NAN_PAYLOAD = True


# ---- random programs ----

def emit_dropout(b):
    """nki.isa.dropout(dst, data, prob): zero where u < prob, data's bits elsewhere."""
    maybe_seed(b)
    s, c = b.lanes()
    dtype = any_dtype(b)
    free = b.free_shape(40)
    n = int(np.prod(free))
    data = b.tile(dtype, s, c, free, compute_mem(b))
    b.load(data, b.values(dtype, (c, n), -50, 50))
    prob, _ = scalar_or_column(b, s, c, 0, 1, "f32")
    dst = data if b.chance(0.2) else b.tile(dtype, b.shifted(s, c), c, free, compute_mem(b))
    b.instr("dropout", dst=dst, data=data, prob=prob)
    b.store(dst)


BLOCKS = [Block(emit_dropout, 0.6, order=43, lockstep=1.3)]
