"""`register_load` (the engine sequencers), docs/SEMANTICS.md S17.1 (NKI 0.6
nki.isa.register_load, NKI 0.7 nki.isa.scalar_load): the reference model's
semantics."""
RULE = "S17.1"


# ---- semantics ----

def register_load(m, o):
    """dst takes the int32 element src (one element of SBUF or HBM; --strict: a
    byte never written is a hazard, S1.1)."""
    m.write_register(o["dst"].name, int(m.read_raw(o["src"]).reshape(-1)[0]))


# ---- random programs ----

EMITTED_BY = ("register_move.emit_register_values (SBUF and HBM elements), fori_loop.emit_fori_rows "
              "(a trip count from HBM), while_loop.emit_while_countdown (a condition from a tile)")
