"""`end_loop` (the engine sequencers), docs/SEMANTICS.md S17.2: the end of
the innermost open fori_loop or while_loop. The reference model's semantics;
the walk (ref_loops.py) decides whether the body runs again."""
RULE = "S17.2"


# ---- semantics ----

def end_loop(m, o):
    """Changes no state: ref_loops.Walk goes back to the body or past the loop."""


# ---- random programs ----

EMITTED_BY = "fori_loop.emit_fori_rows, while_loop.emit_while_countdown: every loop they emit ends with one"
