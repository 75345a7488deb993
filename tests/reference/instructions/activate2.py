"""`activate2` (Scalar, v4+), docs/SEMANTICS.md S4.5:
the reference model's semantics and its random instances."""
import numpy as np

from gen_common import (ACTIVATIONS, ALU_SPELLINGS, any_dtype, Block, compute_mem, data_tile, float_dtype, maybe_gpsimd,
                        pick_function, reduce_cmd_text, reduce_res_tile, REDUCE_SPELLINGS, scalar_or_column, spelled)
from gen_indirect import emit_indirect_streamed
from ref_common import (accumulate, activate, activation_budget, alu_stage, check_valid_range, EXACT_ACTIVATIONS,
                        F32, resolve_indirect_operands)

RULE = "S4.5"


# ---- semantics ----

def activate2(m, o):
    """S4.5: (data op0 imm0) op1 imm1, then op(v, relu_param); reduction of the f32 results.
    An .indirect() dst or data (S1.7) names the columns its index gives."""
    o = resolve_indirect_operands(m, o, "activate2", ("dst", "data"))
    data = m.read(o["data"])
    p = data.shape[0]
    val = alu_stage(o["op0"], data, m.column(o["imm0"], p, o["op0"] != "bypass"), o["reverse0"])
    val = alu_stage(o["op1"], val, m.column(o["imm1"], p, o["op1"] != "bypass"), o["reverse1"])
    check_valid_range(m, o["op"], val)
    result = activate(o["op"], val, m.column(o["relu_param"], p, o["op"] == "prelu"))
    m.write(o["dst"], result)
    accumulate(m, "scalar", o["data"], o["reduce_cmd"], o.get("reduce_op", "add"), result, o.get("reduce_res"))


# ---- lockstep allowances (lockstep.py) ----

ULP_BUDGET = activation_budget


# ---- random programs ----

ACTIVATE2_PAIRS = [("multiply", "add"), ("multiply", "subtract"), ("multiply", "bypass"),
                   ("add", "bypass"), ("subtract", "bypass"), ("bypass", "bypass")]


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
    val = alu_stage(op0, x, col0, reverse0)
    val = alu_stage(op1, val, col1, reverse1)
    op = pick_function(b, val, relu_col, positive, allow_prelu=True, preferred=intended)
    exact = op in EXACT_ACTIVATIONS
    dst = b.tile(any_dtype(b) if exact else "f32", s, c, free, compute_mem(b))
    res = None
    if with_res:
        res = reduce_res_tile(b, s, c, exact=exact and cmd == "reset_reduce" and reduce_op not in (None, "add"))
    ops = {"dst": dst, "op": op, **ops, "reduce_cmd": reduce_cmd_text(b, cmd), "reduce_res": res}
    if reduce_op is not None:
        ops["reduce_op"] = spelled(b, REDUCE_SPELLINGS, reduce_op)
    maybe_gpsimd(b, ops)
    b.instr("activate2", **ops)
    b.store(dst)
    if res is not None:
        b.store(res)


EMITTED_BY = "gen_programs.block_scalar_acc, block_scalar_chain (S3 chains; trn3)"


def emit_activate2_indirect(b):
    """S1.7 (trn3): dst and/or data indirect on the Scalar engine, scalar immediates."""
    def operands(b, start, parts, n):
        return {"op": b.pick(["copy", "relu", "square", "abs"]), "imm0": scalar_or_column(b, start, parts, 0.5, 2.0, "f32")[0],
                "imm1": scalar_or_column(b, start, parts, -1.0, 1.0, "f32")[0], "op0": "multiply", "op1": b.pick(["add", "subtract"])}
    emit_indirect_streamed(b, "activate2", "data", operands, scalar_engine=True)


BLOCKS = [Block(emit_activate2_indirect, 0.2, needs=lambda b: b.arch == "trn3", lockstep=0.3)]
