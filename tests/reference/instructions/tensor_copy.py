"""`tensor_copy` (Vector; or Scalar, GpSimd by `engine=`), docs/SEMANTICS.md S8.1:
the reference model's semantics and its random instances."""
import numpy as np

from gen_common import any_dtype, Block, compute_mem

RULE = "S8.1"


# ---- semantics ----

def tensor_copy(m, o):
    """S8.1: bits copied when dst and src share a dtype, else through float32 (S2)."""
    dst, src = o["dst"], o["src"]
    if m.dtype(dst) == m.dtype(src):
        m.write_raw(dst, m.read_raw(src))
    else:
        m.write(dst, m.read(src))


# ---- lockstep allowances (lockstep.py) ----

KEEPS_NAN_PAYLOAD = "src"


# ---- random programs ----

def emit_tensor_copy(b):
    """S8.1: same dtype (bits) or another one (through float32), on an engine engine= names."""
    s, c = b.lanes()
    free = b.free_shape()
    n = int(np.prod(free))
    engines = [None, "unknown", "vector", "gpsimd"] + (["scalar"] if b.arch in ("trn2", "trn3") else [])
    engine = b.pick(engines)
    mem = (lambda: "sbuf") if engine == "gpsimd" else (lambda: compute_mem(b))
    sdt = any_dtype(b)
    src = b.tile(sdt, b.shifted(s, c), c, free if b.chance(0.8) else [n], mem())
    b.load(src, b.values(sdt, (c, n), -6, 6, specials=b.chance(0.3)))
    ddt = sdt if b.chance(0.4) else any_dtype(b)
    dst = b.tile(ddt, s, c, free, mem())
    b.instr("tensor_copy", dst=dst, src=src, engine=engine)
    b.store(dst)


BLOCKS = [Block(emit_tensor_copy, 1.0, order=18, lockstep=1.5)]
