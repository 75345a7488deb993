"""`select_reduce` (Vector), docs/SEMANTICS.md S4.3:
the reference model's semantics and its random instances."""
import numpy as np

from gen_builder import FP32_MIN
from gen_common import (any_dtype, compute_mem, predicate_values, reduce_cmd_text, reduce_res_tile,
                        REDUCE_SPELLINGS, scalar_or_column, spelled)
from ref_common import accumulate, F32

RULE = "S4.3"


# ---- semantics ----

def select_reduce(m, o):
    """S4.3: result = np.where(predicate, on_true, on_false); max-reduce into the Vector acc."""
    on_true = m.read(o["on_true"])
    predicate = m.read_raw(o["predicate"]) != 0
    if o["reverse_pred"]:
        predicate = ~predicate  # logical not of the predicate (NKI's docstring: "reverses the meaning")
    on_false = m.column(o["on_false"], on_true.shape[0])
    result = np.where(predicate, on_true, on_false).astype(F32)
    m.write(o["dst"], result)
    accumulate(m, "vector", o["on_true"], o["reduce_cmd"], o["reduce_op"], result, o.get("reduce_res"))


# ---- lockstep allowances (lockstep.py) ----

ZERO_SIGN_OPEN = True


# ---- random programs ----

def emit_select_reduce(b, s, c, cmd, with_res, store_dst=True):
    free = b.free_shape()
    n = int(np.prod(free))
    odt = b.pick(["f32", "f32", "bf16", "f16", "fp8e4m3", "fp8e4m3fn", "fp8e5m2", "i8", "i16", "u8", "u16"])
    pdt = b.pick(["i8", "u8", "i16", "u16"])
    omem = compute_mem(b)
    on_true = b.tile(odt, s, c, free, omem)
    b.load(on_true, b.values(odt, (c, n), -20, 20, specials=b.chance(0.2)))
    pred = b.tile(pdt, s, c, free if b.chance(0.7) else [n], "sbuf" if omem == "psum" else compute_mem(b))
    b.load(pred, predicate_values(b, pdt, (c, n)))
    on_false, _ = scalar_or_column(b, s, c, -30, 30, dtype="f32")
    if not hasattr(on_false, "name") and b.chance(0.2):
        on_false = b.pick([FP32_MIN, -1000.0, 0.0])
    dst = on_true if b.chance(0.1) else b.tile(any_dtype(b, 0.85), s, c, free, compute_mem(b))
    res = reduce_res_tile(b, s, c, exact=True) if with_res else None
    ops = {"dst": dst, "predicate": pred, "on_true": on_true, "on_false": on_false, "reduce_res": res,
           "reduce_cmd": reduce_cmd_text(b, cmd)}
    if b.chance(0.2):
        ops["reduce_op"] = spelled(b, REDUCE_SPELLINGS, "maximum")
    if b.chance(0.4):
        ops["reverse_pred"] = b.chance(0.7)
    b.instr("select_reduce", **ops)
    if store_dst or dst is on_true:
        b.store(dst)
    if res is not None:
        b.store(res)


EMITTED_BY = "gen_programs.block_vector_acc, block_vector_chain (S3 chains)"
