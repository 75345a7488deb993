"""`rng` (Vector by default, `engine=gpsimd` for GpSimd), docs/SEMANTICS.md S11.6:
the reference model's semantics and its random instances."""
import numpy as np

from gen_common import Block, compute_mem, INTS
from instructions.set_rng_seed import maybe_seed
from ref_common import draws
import ref_dtypes

RULE = "S11.6"


# ---- semantics ----

def rng(m, o):
    """S11.5: random bits truncated to dst's integer dtype (its low bits)."""
    dst = o["dst"]
    bits = draws(m, o["engine"], dst).astype(np.uint64)
    m.write_raw(dst, ref_dtypes.encode_int(m.dtype(dst), _wrap(m.dtype(dst), bits)))


def _wrap(dtype, bits):
    """The low bits of each pattern as the integer value dtype holds (two's complement)."""
    size = 8 * ref_dtypes.itemsize(dtype)
    v = (bits & ((1 << size) - 1)).astype(np.int64)
    if dtype.startswith("i"):
        v = np.where(v >= 1 << (size - 1), v - (1 << size), v)
    return v


# ---- random programs ----

def emit_rng(b):
    """nki.isa.rng(dst, engine): random bits truncated to an integer dtype."""
    maybe_seed(b)
    s, c = b.lanes()
    engine = b.pick(["vector", "vector", "gpsimd"]) if b.arch in ("trn2", "trn3") else "vector"
    dst = b.tile(b.pick(INTS), s, c, b.free_shape(40), "sbuf" if engine == "gpsimd" else compute_mem(b))
    b.instr("rng", dst=dst, engine=engine if (engine != "vector" or b.chance(0.3)) else None)
    b.store(dst)


BLOCKS = [Block(emit_rng, 0.5, order=41, lockstep=0.3)]
