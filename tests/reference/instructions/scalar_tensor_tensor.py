"""`scalar_tensor_tensor` (Vector), docs/SEMANTICS.md S4.23:
the reference model's semantics and its random instances."""
import numpy as np

from gen_common import (alu_text, any_dtype, Block, compute_mem, scalar_or_column, two_tiles_not_both_psum,
                        UNARY_ALU)
from ref_common import ALU, alu_stage, F32

RULE = "S4.23"


# ---- semantics ----

def scalar_tensor_tensor(m, o):
    """S4.23: (data op0 operand0) op1 operand1, each stage reversible, in float32."""
    data, operand1 = m.read(o["data"]), m.read(o["operand1"])
    v = alu_stage(o["op0"], data, m.column(o["operand0"], data.shape[0]), o["reverse0"])
    with np.errstate(all="ignore"):
        result = ALU[o["op1"]](operand1, v) if o["reverse1"] else ALU[o["op1"]](v, operand1)
    m.write(o["dst"], np.asarray(result, dtype=F32))


# ---- random programs ----

# Arithmetic stages whose results stay small on inputs in [-4, 4] and operands in [-3, 3].
STAGE_OPS = ["add", "subtract", "multiply", "maximum", "minimum", "abs_max", "abs_min", "equal", "greater",
             "logical_and"] + UNARY_ALU


def emit_scalar_tensor_tensor(b):
    """nki.isa.scalar_tensor_tensor (S4.23): (data op0 operand0) op1 operand1."""
    s, c = b.lanes()
    free = b.free_shape()
    data, operand1 = two_tiles_not_both_psum(b, s, c, free, [(-4, 4), (-3, 3)], [any_dtype(b), any_dtype(b)])
    op0 = b.pick(STAGE_OPS)
    op1 = b.pick([o for o in STAGE_OPS if o not in UNARY_ALU])
    operand0, _ = scalar_or_column(b, s, c, -3, 3)
    dst = data if b.chance(0.15) else b.tile(any_dtype(b), s, c, free, compute_mem(b))
    ops = {"dst": dst, "data": data, "op0": alu_text(b, op0), "operand0": operand0, "op1": alu_text(b, op1),
           "operand1": operand1}
    for key in ("reverse0", "reverse1"):
        if b.chance(0.4):
            ops[key] = b.chance(0.7)
    b.instr("scalar_tensor_tensor", **ops)
    b.store(dst)


BLOCKS = [Block(emit_scalar_tensor_tensor, 0.6, order=24, lockstep=1.2)]
