"""Random `activation` (S4.6) and `activate2` (S4.5) instructions on the
Scalar Engine. Inputs are chosen by evaluating the model's own pre-activation
values: a function is used only on inputs inside its valid range (S5), and an
add-reduction only over non-negative results (so reordering stays within rtol)."""
import numpy as np

import nki_ref
from gen_instructions import (ACTIVATE2_PAIRS, ACTIVATIONS, ALU_SPELLINGS, EXACT_ACTIVATIONS, FLOATS,
                              REDUCE_SPELLINGS, any_dtype, compute_mem, float_dtype, reduce_cmd_text,
                              reduce_res_tile, scalar_or_column, spelled)

F32 = np.float32


def op_is_valid(op, pre, result, positive):
    """S5's valid input ranges, with margins; and finite (non-negative if positive) results."""
    if not np.all(np.isfinite(pre)):
        return False
    a = np.abs(pre)
    ok = {"exp": pre.max() <= 30, "log": pre.min() >= 0.01, "sqrt": pre.min() >= 1e-3,
          "rsqrt": pre.min() >= 1e-3, "reciprocal": a.min() >= 0.05, "sin": a.max() <= 3.1,
          "arctan": a.max() <= 1.5, "square": a.max() <= 1e15}.get(op, True)
    if not ok or not np.all(np.isfinite(result)):
        return False
    return not (positive and np.any(result < 0))


# Input ranges that keep each function inside S5's valid range after a scale in
# [0.5, 2] and a bias in [-0.5, 0.5] (functions marked singular get no bias).
DATA_RANGE = {"log": (0.05, 20.0), "sqrt": (0.01, 50.0), "rsqrt": (0.01, 50.0), "reciprocal": (0.1, 20.0),
              "sin": (-1.2, 1.2), "arctan": (-0.45, 0.45), "exp": (-8.0, 8.0)}
SINGULAR = ("log", "sqrt", "rsqrt", "reciprocal")


def pick_function(b, pre, relu_param, positive, allow_prelu, preferred=None):
    candidates = [op for op in ACTIVATIONS if allow_prelu or op != "prelu"]
    first = [candidates.index(preferred)] if preferred in candidates else []
    for k in first + list(b.rng.permutation(len(candidates))):
        op = candidates[int(k)]
        result = nki_ref.activate(op, pre, relu_param)
        if op_is_valid(op, pre, result, positive):
            return op
    return "abs"


def data_tile(b, s, c, positive, op, max_elems=160):
    free = b.free_shape(max_elems)
    n = int(np.prod(free))
    dtype = any_dtype(b, 0.85)
    t = b.tile(dtype, s, c, free, compute_mem(b))
    lo, hi = DATA_RANGE.get(op, b.pick([(-4.0, 4.0), (-1.4, 1.4), (-12.0, 12.0)]))
    if positive:
        lo, hi = max(lo, 0.1), min(hi, 4.0) if hi > 0.2 else 4.0
    irange = (1, 20) if positive or op in SINGULAR else (-10, 10)
    values = b.values(dtype, (c, n), lo, hi, irange=irange)
    if op == "reciprocal" and b.chance(0.5):
        values = -values
    values = np.asarray(b.load(t, values), dtype=np.float64).astype(F32)
    return t, free, values


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
    b.instr("activation", **ops)
    b.store(dst)
    if res is not None:
        b.store(res)


def stage_operand(b, s, c, op, positive, dtype):
    lo, hi = {"multiply": (0.5, 2.0) if positive else (-2.0, 2.0),
              "add": (0.0, 1.0) if positive else (-1.0, 1.0)}.get(op, (-1.0, 1.0))
    return scalar_or_column(b, s, c, lo, hi, dtype)


def emit_activate2(b, s, c, cmd, with_res, reduce_op=None):
    """S4.5's three stages; reduce_op any of the five (S3)."""
    positive = reduce_op == "add" and cmd in ("reduce", "reset_reduce")
    intended = b.pick(ACTIVATIONS)
    data, free, x = data_tile(b, s, c, positive, intended)
    op0, op1 = b.pick(ACTIVATE2_PAIRS)
    imm_dtype = float_dtype(b)  # both immediates share a dtype when both are tiles
    imm0, col0 = stage_operand(b, s, c, op0, positive, imm_dtype)
    imm1, col1 = stage_operand(b, s, c, op1, positive, imm_dtype)
    reverse0 = op0 != "bypass" and b.chance(0.4)
    reverse1 = op1 != "bypass" and b.chance(0.4)
    relu_col = np.zeros((c, 1), dtype=F32)
    ops = {"data": data, "imm0": imm0, "imm1": imm1, "op0": spelled(b, ALU_SPELLINGS, op0),
           "op1": spelled(b, ALU_SPELLINGS, op1)}
    if b.chance(0.5):
        ops["relu_param"], relu_col = scalar_or_column(b, s, c, -0.5, 0.5)
    if reverse0 or (op0 != "bypass" and b.chance(0.2)):
        ops["reverse0"] = reverse0
    if reverse1 or (op1 != "bypass" and b.chance(0.2)):
        ops["reverse1"] = reverse1
    val = nki_ref.alu_stage(op0, x, col0, reverse0)
    val = nki_ref.alu_stage(op1, val, col1, reverse1)
    op = pick_function(b, val, relu_col, positive, allow_prelu=True, preferred=intended)
    exact = op in EXACT_ACTIVATIONS
    dst = b.tile(any_dtype(b) if exact else "f32", s, c, free, compute_mem(b))
    res = None
    if with_res:
        res = reduce_res_tile(b, s, c, exact=exact and cmd == "reset_reduce" and reduce_op not in (None, "add"))
    ops = {"dst": dst, "op": op, **ops, "reduce_cmd": reduce_cmd_text(b, cmd), "reduce_res": res}
    if reduce_op is not None:
        ops["reduce_op"] = spelled(b, REDUCE_SPELLINGS, reduce_op)
    b.instr("activate2", **ops)
    b.store(dst)
    if res is not None:
        b.store(res)


def emit_scalar_acc(b, s, c, cmd, with_res, reduce_op="add"):
    """activation (add only) or, on trn3, activate2: whichever can take reduce_op."""
    if b.arch == "trn3" and (reduce_op != "add" or b.chance(0.5)):
        if cmd == "idle" and b.chance(0.5):
            reduce_op = None
        emit_activate2(b, s, c, cmd, with_res, reduce_op)
    else:
        emit_activation(b, s, c, cmd, with_res, positive=cmd in ("reduce", "reset_reduce"))


__all__ = ["emit_activation", "emit_activate2", "emit_scalar_acc", "FLOATS"]
