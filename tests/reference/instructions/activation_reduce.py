"""`activation_reduce` (Scalar), docs/SEMANTICS.md S4.25:
the reference model's semantics and its random instances."""
import numpy as np

from gen_common import (ACTIVATIONS, Block, compute_mem, data_tile, float_dtype, pick_function, reduce_res_tile,
                        scalar_or_column)
from ref_common import accumulate, activate, activation_budget, check_valid_range, EXACT_ACTIVATIONS, F32

RULE = "S4.25"


# ---- semantics ----

def activation_reduce(m, o):
    """S4.25: activation (S4.6) with reduce_cmd=reset_reduce into the Scalar acc, then reduce_res."""
    data = m.read(o["data"])
    p = data.shape[0]
    with np.errstate(all="ignore"):
        pre = ((data * m.column(o["scale"], p)).astype(F32) + m.column(o.get("bias", 0.0), p)).astype(F32)
    check_valid_range(m, o["op"], pre)
    result = activate(o["op"], pre, 0.0)
    m.write(o["dst"], result)
    accumulate(m, "scalar", o["data"], "reset_reduce", o["reduce_op"], result, o["reduce_res"])


# ---- lockstep allowances (lockstep.py) ----

ULP_BUDGET = activation_budget


# ---- random programs ----

def emit_activation_reduce(b):
    """nki.isa.activation_reduce (S4.25): activation with reset_reduce into the Scalar accumulator."""
    s, c = b.lanes()
    reduce_op = b.pick(["add", "add", "maximum", "minimum"])
    positive = reduce_op == "add"
    intended = b.pick([op for op in ACTIVATIONS if op not in ("prelu", "log")])
    data, free, x = data_tile(b, s, c, positive, intended)
    ops = {"data": data}
    scale_col = np.ones((c, 1), dtype=F32)
    if b.chance(0.6):
        ops["scale"], scale_col = scalar_or_column(b, s, c, 0.5, 2.0)
    with np.errstate(all="ignore"):
        pre = (x * scale_col).astype(F32)
    op = pick_function(b, pre, 0.0, positive, allow_prelu=False, preferred=intended)
    # a transcendental result rounded to a narrower dtype may flip by one of its ulps
    # when float32 and float64 differ in the last bit: those go to float32 (as emit_activation)
    exact = op in EXACT_ACTIVATIONS
    dst = b.tile("f32" if not exact or b.chance(0.6) else float_dtype(b), s, c, free, compute_mem(b))
    res = reduce_res_tile(b, s, c, exact=False)
    b.instr("activation_reduce", dst=dst, op=op, **ops, reduce_op=reduce_op, reduce_res=res)
    b.store(dst)
    b.store(res)


BLOCKS = [Block(emit_activation_reduce, 0.5, order=26, lockstep=1.3)]
