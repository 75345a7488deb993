"""`rand_set_state` (GpSimd by default, `engine=vector`), docs/SEMANTICS.md S11.10:
the reference model's semantics and its random instances."""
import numpy as np

from gen_common import Block, has_v3, INTS

RULE = "S11.10"


# ---- semantics ----

def rand_set_state(m, o):
    """S11.5: per lane, generator after generator, the words [x, y, z, w, v, d]."""
    src = o["src_seeds"]
    words = m.read_raw(src).astype(np.uint32)
    state = m.rng[o["engine"]]
    state[m.lanes(src)] = words.reshape(words.shape[0], state.shape[1], 6)


# ---- random programs ----

def emit_rand_state(b):
    """rand_set_state, draws from that state, rand_get_state (v3+; Vector forms v4+)."""
    engine = b.pick(["gpsimd", "vector"]) if b.arch == "trn3" else "gpsimd"
    words = 24 if engine == "vector" else 6
    s, c = b.lanes()
    src = b.tile("u32", s, c, [words], "sbuf")
    b.load(src, b.rng.integers(0, 2 ** 32, size=(c, words)))
    b.instr("rand_set_state", src_seeds=src, engine=engine if (engine != "gpsimd" or b.chance(0.3)) else None)
    drawn = b.tile(b.pick(INTS), s, c, b.free_shape(20), "sbuf")
    b.instr("rng", dst=drawn, engine=engine)
    b.store(drawn)
    dst = b.tile("u32", b.shifted(s, c), c, [words], "sbuf")
    b.instr("rand_get_state", dst=dst, engine=engine)
    b.store(dst)


BLOCKS = [Block(emit_rand_state, 0.4, needs=has_v3, order=44, lockstep=1.2)]
