"""`activation` (Scalar), docs/SEMANTICS.md S4.6:
the reference model's semantics and its random instances."""
import numpy as np

from gen_common import (ACTIVATIONS, any_dtype, Block, compute_mem, data_tile, maybe_gpsimd, pick_function, reduce_cmd_text,
                        reduce_res_tile, scalar_or_column, SINGULAR)
from gen_indirect import emit_indirect_streamed
from ref_common import (accumulate, activate, activation_budget, check_valid_range, EXACT_ACTIVATIONS, F32,
                        resolve_indirect_operands)

RULE = "S4.6"


# ---- semantics ----

def activation(m, o):
    """S4.6: dst = op(data * scale + bias) in float32; add-reduction into the Scalar acc.
    engine=gpsimd (NKI 0.7) computes the same values (S4.6). An .indirect() dst or
    data (S1.7) names the columns its index gives."""
    o = resolve_indirect_operands(m, o, "activation", ("dst", "data"))
    data = m.read(o["data"])
    p = data.shape[0]
    scale = m.column(o["scale"], p)
    bias = m.column(o.get("bias", 0.0), p)
    with np.errstate(all="ignore"):
        pre = ((data * scale).astype(F32) + bias).astype(F32)
    check_valid_range(m, o["op"], pre)
    result = activate(o["op"], pre, 0.0)
    m.write(o["dst"], result)
    accumulate(m, "scalar", o["data"], o["reduce_cmd"], o.get("reduce_op", "add"), result, o.get("reduce_res"))


# ---- lockstep allowances (lockstep.py) ----

ULP_BUDGET = activation_budget


# ---- random programs ----

def emit_activation(b, s, c, cmd, with_res, positive):
    """dst = op(data * scale + bias) (S4.6); reduce_op is add only."""
    intended = b.pick([op for op in ACTIVATIONS if op not in ("prelu", "log") or not positive])
    data, free, x = data_tile(b, s, c, positive, intended)
    ops = {"data": data}
    scale_col = np.ones((c, 1), dtype=F32)
    if b.chance(0.7):
        ops["scale"], scale_col = scalar_or_column(b, s, c, 0.5, 2.0)
    bias_col = np.zeros((c, 1), dtype=F32)
    if b.chance(0.6) and intended not in SINGULAR:
        ops["bias"], bias_col = scalar_or_column(b, s, c, 0.0 if positive else -0.5, 0.5)
    with np.errstate(all="ignore"):
        pre = ((x * scale_col).astype(F32) + bias_col).astype(F32)
    op = pick_function(b, pre, 0.0, positive, allow_prelu=False, preferred=intended)
    exact = op in EXACT_ACTIVATIONS
    dst = b.tile(any_dtype(b) if exact else "f32", s, c, free, compute_mem(b))
    res = reduce_res_tile(b, s, c, exact=False) if with_res else None
    ops = {"dst": dst, "op": op, **ops, "reduce_cmd": reduce_cmd_text(b, cmd), "reduce_res": res}
    if cmd in ("reduce", "reset_reduce") or b.chance(0.3):
        ops["reduce_op"] = "add"
    maybe_gpsimd(b, ops)
    b.instr("activation", **ops)
    b.store(dst)
    if res is not None:
        b.store(res)


EMITTED_BY = "gen_programs.block_scalar_acc, block_scalar_chain (S3 chains), block_rept"


def emit_activation_gpsimd(b):
    """NKI 0.7 engine=gpsimd (trn3): an activation without accumulator, its
    tiles in SBUF (maybe_gpsimd); the same values as on the Scalar engine."""
    s, c = b.lanes()
    emit_activation(b, s, c, "idle", False, b.chance(0.3))


def emit_activation_indirect(b):
    """S1.7 (trn3): dst and/or data indirect on the Scalar engine, scale and bias scalars."""
    def operands(b, start, parts, n):
        ops = {"op": b.pick(["copy", "relu", "square", "abs"]),  # exact (S5): any dst dtype
               "scale": scalar_or_column(b, start, parts, 0.5, 2.0)[0]}
        if b.chance(0.5):
            ops["bias"] = scalar_or_column(b, start, parts, -0.5, 0.5)[0]
        return ops
    emit_indirect_streamed(b, "activation", "data", operands, scalar_engine=True)


BLOCKS = [Block(emit_activation_gpsimd, 0.2, needs=lambda b: b.arch == "trn3", lockstep=0.4),
          Block(emit_activation_indirect, 0.2, needs=lambda b: b.arch == "trn3", lockstep=0.3)]
