"""`rand2` (Vector, v4+), docs/SEMANTICS.md S11.7:
the reference model's semantics and its random instances."""
import numpy as np

from gen_common import Block, compute_mem, has_v4, scalar_or_column
from instructions.set_rng_seed import maybe_seed
from ref_common import draws, F32
import ref_random

RULE = "S11.7"


# ---- semantics ----

def rand2(m, o):
    """S11.5: min + (max - min) * u in float32, u = (b >> 8) * 2^-24."""
    dst = o["dst"]
    p = m.partitions(dst)
    lo = m.column(o["min"], p)
    hi = m.column(o["max"], p)
    u = ref_random.unit(draws(m, "vector", dst))
    with np.errstate(all="ignore"):
        m.write(dst, (lo + (hi - lo).astype(F32) * u).astype(F32))


# ---- random programs ----

def emit_rand2(b):
    """nki.isa.rand2(dst, min, max) (v4+): uniform in [min, max) through float32."""
    maybe_seed(b)
    s, c = b.lanes()
    lo, lo_col = scalar_or_column(b, s, c, -8, 0, "f32")
    hi, _ = scalar_or_column(b, s, c, 1, 9, "f32")
    dtype = b.pick(["f32", "f32", "bf16", "f16", "tf32", "fp8e4m3", "fp8e5m2", "i8", "i16", "i32", "u8", "u16", "u32"])
    dst = b.tile(dtype, s, c, b.free_shape(40), compute_mem(b))
    b.instr("rand2", dst=dst, min=lo, max=hi)
    b.store(dst)


BLOCKS = [Block(emit_rand2, 0.5, needs=has_v4, order=42, lockstep=2.6)]
