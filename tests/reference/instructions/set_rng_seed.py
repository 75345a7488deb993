"""`set_rng_seed` (Vector), docs/SEMANTICS.md S11.9:
the reference model's semantics and its random instances."""
import ref_random

RULE = "S11.9"


# ---- semantics ----

def set_rng_seed(m, o):
    """S11.5: every Vector generator seeded from the 32-bit seed."""
    seed = int(m.read_raw(o["src_seeds"]).reshape(-1)[0]) & 0xFFFFFFFF
    m.rng["vector"] = ref_random.seeded(seed, "vector")


# ---- random programs ----

def maybe_seed(b):
    """Sometimes set_rng_seed from a [1, 1] u32 or i32 tile first (else the state goes on)."""
    if b.chance(0.5):
        dtype = b.pick(["u32", "i32"])
        seed = b.tile(dtype, 0, 1, [1], "sbuf")
        b.load(seed, b.values(dtype, (1, 1)))
        b.instr("set_rng_seed", src_seeds=seed)


EMITTED_BY = "maybe_seed (here), called by the rng, rand2 and dropout emitters"
