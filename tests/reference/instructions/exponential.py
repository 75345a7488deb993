"""`exponential` (Vector, NeuronCore-v4+), docs/SEMANTICS.md S4.26:
the reference model's semantics and its random instances."""
import numpy as np

from gen_common import Block, compute_mem, reduce_res_tile, scalar_or_column
from gen_indirect import emit_indirect_streamed
from instructions.reciprocal import emit_reciprocal
from ref_common import accumulate_load, activate, ACTIVATION_ULP, F32, resolve_indirect_operands

RULE = "S4.26"


# ---- semantics ----

def exponential(m, o):
    """S4.26, NKI 0.6's docstring: dst = exp(src - max_value) in float32; the sum into the Vector acc.
    An .indirect() dst or src (S1.7) names the columns its index gives."""
    o = resolve_indirect_operands(m, o, "exponential", ("dst", "src"))
    src = m.read(o["src"])
    p = src.shape[0]
    with np.errstate(all="ignore"):
        pre = (src - m.column(o["max_value"], p)).astype(F32)
    result = activate("exp", pre, 0.0)
    m.write(o["dst"], result)
    init = m.column(o["reduce_init"], p) if o["reduce_cmd"] == "load_reduce" else None
    accumulate_load(m, "vector", o["src"], o["reduce_cmd"], "add", result, o.get("reduce_res"), init)


# ---- lockstep allowances (lockstep.py) ----

ULP_BUDGET = ACTIVATION_ULP


# ---- random programs ----

def emit_exponential(b):
    """nki.isa.exponential (S4.26, trn3 only): exp(src - max_value), sums into the Vector accumulator."""
    if b.arch != "trn3":
        return emit_reciprocal(b)
    s, c = b.lanes()
    free = b.free_shape()
    n = int(np.prod(free))
    cmd = b.pick(["idle", "reset_reduce", "load_reduce", "chain"])
    for k in range(2 if cmd == "chain" else 1):
        sdt = b.pick(["f32", "f32", "bf16", "f16", "i8", "i16", "i32", "u8"])
        src = b.tile(sdt, s, c, free, compute_mem(b))
        b.load(src, b.values(sdt, (c, n), -6, 6, irange=(0, 8)))
        dst = b.tile("f32", s, c, free, compute_mem(b))  # exp: float32 only (see emit_activation_reduce)
        this = "reduce" if k == 1 else ("reset_reduce" if cmd == "chain" else cmd)
        ops = {"dst": dst, "src": src}
        if b.chance(0.7):
            ops["max_value"], _ = scalar_or_column(b, s, c, -1, 8, "f32")
        if this != "idle" or b.chance(0.5):
            ops["reduce_cmd"] = this
        if this == "load_reduce":
            ops["reduce_init"], _ = scalar_or_column(b, s, c, 0, 3, "f32")
        res = reduce_res_tile(b, s, c, exact=False) if this != "idle" and (k == 1 or cmd != "chain") else None
        ops["reduce_res"] = res
        b.instr("exponential", **ops)
        b.store(dst)
        if res is not None:
            b.store(res)


def emit_exponential_indirect(b):
    """S1.7 (trn3): dst and/or src indirect, float32 (exp's dst, as above)."""
    def operands(b, start, parts, n):
        return {"max_value": scalar_or_column(b, start, parts, -1, 8, "f32")[0]}
    emit_indirect_streamed(b, "exponential", "src", operands, dtype=lambda b: "f32")


BLOCKS = [Block(emit_exponential, 0.5, order=27, lockstep=1.5),
          Block(emit_exponential_indirect, 0.2, needs=lambda b: b.arch == "trn3", lockstep=0.3)]
