"""`core_barrier` (NKI 0.6 nki.isa.core_barrier), docs/SEMANTICS.md S16.3:
the reference model's semantics and its random instances (at one core, where
it waits for no one)."""
from gen_common import Block, any_dtype

RULE = "S16.3"

# Its meetings need a second core: the multi-core random programs check them
# against multicore.py. A barrier writes nothing, so the lockstep's count of
# instances with a nonzero result cannot reach it.
MULTI_CORE = "tests/reference/run_multicore.py (ctest reference_multicore): random two-core programs against multicore.py"


# ---- semantics ----

def core_barrier(m, o):
    """The cores named that the program has, and the one running it, wait
    for each other (multicore.py makes them meet); data names the shared HBM
    tensor they meet over and is neither read nor written."""


# ---- random programs ----

# NKI kernels pass (0, 1), a list, (0,) or a bare 0 (nki-library), at LNC=1 as well.
CORES = ["[0, 1]", "[1, 0]", "[0]", "0", "[0, 1, 2, 3]"]


def emit_core_barrier(b):
    """One core: a tile stored to HBM, a barrier over that tensor (a no-op: the
    program has no other core), the tensor read back and stored again."""
    dtype = any_dtype(b, 0.5)
    s, c = b.lanes()
    t = b.tile(dtype, s, c, b.free_shape())
    b.load(t, b.values(dtype, (c, t.elems), -100, 100, specials=True))
    name = b.hbm(dtype, [c, t.elems], "output")
    b.instr("dma_copy", dst=name, src=t)
    engine = b.pick([None, "gpsimd", "vector", "scalar", "tensor"])
    b.instr("core_barrier", data=name, cores=b.pick(CORES), engine=engine)
    back = b.tile(dtype, 0, c, [t.elems])
    b.instr("dma_copy", dst=back, src=name)
    b.store(back)


BLOCKS = [Block(emit_core_barrier, 0.1, lockstep=0.3)]
