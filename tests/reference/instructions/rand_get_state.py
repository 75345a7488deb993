"""`rand_get_state` (GpSimd by default, `engine=vector`), docs/SEMANTICS.md S11.11:
the reference model's semantics and its random instances."""

RULE = "S11.11"


# ---- semantics ----

def rand_get_state(m, o):
    dst = o["dst"]
    state = m.rng[o["engine"]]
    m.write_raw(dst, state[m.lanes(dst)].reshape(len(m.lanes(dst)), -1).copy())


# ---- lockstep allowances (lockstep.py) ----

KEEPS_NAN_PAYLOAD = True


# ---- random programs ----

EMITTED_BY = "instructions/rand_set_state.py's emit_rand_state"
