"""`tensor_scalar_reduce` (Vector), docs/SEMANTICS.md S4.24:
the reference model's semantics and its random instances."""
import numpy as np

from gen_common import (alu_text, any_dtype, Block, compute_mem, reduce_res_tile, scalar_or_column, spelled,
                        UNARY_ALU)
from gen_indirect import emit_indirect_streamed
from ref_common import accumulate_load, alu_stage, resolve_indirect_operands

RULE = "S4.24"


# ---- semantics ----

def tensor_scalar_reduce(m, o):
    """S4.24: dst = data op0 operand0; reduce_op of the float32 results into the Vector acc.
    An .indirect() dst or data (S1.7) names the columns its index gives."""
    o = resolve_indirect_operands(m, o, "tensor_scalar_reduce", ("dst", "data"))
    data = m.read(o["data"])
    p = data.shape[0]
    result = alu_stage(o["op0"], data, m.column(o["operand0"], p), o["reverse0"])
    m.write(o["dst"], result)
    init = m.column(o["reduce_init"], p) if o["reduce_cmd"] == "load_reduce" else None
    accumulate_load(m, "vector", o["data"], o["reduce_cmd"], o["reduce_op"], result, o.get("reduce_res"), init,
                    o["reduce_res_negate"])


# ---- random programs ----

def emit_tensor_scalar_reduce(b):
    """nki.isa.tensor_scalar_reduce (S4.24): reset_reduce, load_reduce or a chain continuing with reduce."""
    s, c = b.lanes()
    free = b.free_shape()
    n = int(np.prod(free))
    reduce_op = b.pick(["add", "multiply", "maximum", "minimum"])
    op0 = b.pick(["add", "multiply", "maximum", "abs", "square"] if reduce_op != "multiply" else ["add", "multiply"])
    cmd = b.pick(["reset_reduce", "load_reduce", "chain"])
    for k in range(2 if cmd == "chain" else 1):
        ddt = any_dtype(b)
        data = b.tile(ddt, s, c, free, compute_mem(b))
        if reduce_op == "multiply":  # factors near 1 keep long products finite
            b.load(data, b.values(ddt, (c, n), 0.45, 0.55, irange=(0, 1)))
            operand0, _ = scalar_or_column(b, s, c, 0.5, 0.55, "f32") if op0 == "add" else \
                scalar_or_column(b, s, c, 1.9, 2.1, "f32")
        else:  # non-negative results for add (S3)
            b.load(data, b.values(ddt, (c, n), 0.1, 4, irange=(0, 20)))
            operand0, _ = scalar_or_column(b, s, c, 0.0, 2.0)
        dst = data if b.chance(0.15) else b.tile(any_dtype(b), s, c, free, compute_mem(b))
        last = k == 1 or cmd != "chain"
        res = reduce_res_tile(b, s, c, exact=reduce_op in ("maximum", "minimum")) if last or b.chance(0.3) else None
        this = "reduce" if k == 1 else ("reset_reduce" if cmd == "chain" else cmd)
        ops = {"dst": dst, "data": data, "op0": alu_text(b, op0), "operand0": operand0,
               "reduce_op": spelled(b, {"add": ["add"], "multiply": ["multiply", "mul"], "maximum": ["maximum", "max"],
                                        "minimum": ["minimum", "min"]}, reduce_op), "reduce_res": res}
        if op0 not in UNARY_ALU and b.chance(0.2):
            ops["reverse0"] = False
        if this != "reset_reduce" or b.chance(0.5):
            ops["reduce_cmd"] = this
        if this == "load_reduce":
            ops["reduce_init"], _ = scalar_or_column(b, s, c, 0.5, 2.0, "f32")
        if res is not None and b.chance(0.4):
            ops["reduce_res_negate"] = b.chance(0.8)
        b.instr("tensor_scalar_reduce", **ops)
        b.store(dst)
        if res is not None:
            b.store(res)


def emit_tensor_scalar_reduce_indirect(b):
    """S1.7 (trn3): dst and/or data indirect; an exact reduction (maximum,
    minimum) of the results into the Vector accumulator and reduce_res."""
    def operands(b, start, parts, n):
        return {"op0": alu_text(b, b.pick(["add", "multiply", "maximum"])), "operand0": scalar_or_column(b, start, parts, -2.0, 2.0)[0],
                "reduce_op": b.pick(["maximum", "minimum"]), "reduce_cmd": "reset_reduce",
                "reduce_res": b.tile("f32", start, parts, [1], compute_mem(b))}
    emit_indirect_streamed(b, "tensor_scalar_reduce", "data", operands)


BLOCKS = [Block(emit_tensor_scalar_reduce, 0.6, order=25, lockstep=1.1),
          Block(emit_tensor_scalar_reduce_indirect, 0.2, needs=lambda b: b.arch == "trn3", lockstep=0.3)]
