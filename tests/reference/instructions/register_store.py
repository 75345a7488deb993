"""`register_store` (the engine sequencers), docs/SEMANTICS.md S17.1 (NKI 0.6
nki.isa.register_store, NKI 0.7 nki.isa.scalar_store): the reference model's
semantics."""
import numpy as np

RULE = "S17.1"


# ---- semantics ----

def register_store(m, o):
    """The int32 element dst (SBUF or HBM) takes the register src."""
    m.write_raw(o["dst"], np.array([[m.read_register(o["src"].name)]], dtype=np.int32))


# ---- random programs ----

EMITTED_BY = "register_move.emit_register_values, register_op.emit_register_arithmetic, fori_loop.emit_fori_rows"
