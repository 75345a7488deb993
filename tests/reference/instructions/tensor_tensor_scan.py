"""`tensor_tensor_scan` (Vector), docs/SEMANTICS.md S4.20:
the reference model's semantics and its random instances."""
import numpy as np

from gen_common import (alu_text, any_dtype, Block, compute_mem, float_dtype, INTS, scalar_or_column,
                        two_tiles_not_both_psum)
from ref_common import ALU, F32

RULE = "S4.20"


# ---- semantics ----

def tensor_tensor_scan(m, o):
    """S4.20, NKI 0.6's docstring loop: result[:, i] = op1(op0(data0[:, i], result[:, i-1]), data1[:, i]),
    result[:, -1] = initial, over the flat free elements; reverse0/reverse1 swap a stage's inputs."""
    data0, data1 = m.read(o["data0"]), m.read(o["data1"])
    prev = m.column(o["initial"], data0.shape[0])[:, 0]
    result = np.zeros(data0.shape, dtype=F32)
    with np.errstate(all="ignore"):
        for i in range(data0.shape[1]):
            first = ALU[o["op0"]](prev, data0[:, i]) if o["reverse0"] else ALU[o["op0"]](data0[:, i], prev)
            first = np.asarray(first, dtype=F32)
            prev = np.asarray(ALU[o["op1"]](data1[:, i], first) if o["reverse1"] else ALU[o["op1"]](first, data1[:, i]),
                              dtype=F32)
            result[:, i] = prev
    m.write(o["dst"], result)


# ---- random programs ----

SCAN_OPS = ["add", "subtract", "multiply", "maximum", "minimum", "abs_max", "abs_min", "greater", "less_equal",
            "not_equal", "logical_or"]


def emit_tensor_tensor_scan(b):
    """nki.isa.tensor_tensor_scan: a float32 recurrence along the free elements (S4.20)."""
    s, c = b.lanes()
    free = b.free_shape(96)
    # |data0| <= 1.1 keeps a multiply recurrence finite over ~100 steps
    data0, data1 = two_tiles_not_both_psum(b, s, c, free, [(-1.1, 1.1), (-3, 3)],
                                           [any_dtype(b, 0.85), any_dtype(b, 0.85)])
    op0, op1 = b.pick(SCAN_OPS), b.pick(SCAN_OPS)
    initial, _ = scalar_or_column(b, s, c, -2, 2)
    dst = data0 if b.chance(0.15) else b.tile(float_dtype(b) if b.chance(0.85) else b.pick(INTS), s, c, free,
                                               compute_mem(b))
    ops = {"dst": dst, "data0": data0, "data1": data1, "initial": initial, "op0": alu_text(b, op0),
           "op1": alu_text(b, op1)}
    for key in ("reverse0", "reverse1"):
        if b.chance(0.4):
            ops[key] = b.chance(0.7)
    b.instr("tensor_tensor_scan", **ops)
    b.store(dst)


BLOCKS = [Block(emit_tensor_tensor_scan, 0.8, order=21, lockstep=1.4)]
