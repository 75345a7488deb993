"""`tensor_scalar` (Vector), docs/SEMANTICS.md S4.10:
the reference model's semantics and its random instances."""
import numpy as np

from gen_common import (ALU_SPELLINGS, any_dtype, BITVEC_ALU, Block, compute_mem, general_data, INTS,
                        MORE_ALU_SPELLINGS, scalar_or_column, spelled, UNARY_ALU)
from gen_indirect import emit_indirect_streamed
from ref_common import alu_stage, bit_stage, bits_of, column_bits, is_bitvec, resolve_indirect_operands, write_bits

RULE = "S4.10"


# ---- semantics ----

def tensor_scalar_bits(m, o):
    """Bitvec operators: the stages act on bit patterns (S7)."""
    data = bits_of(m.read_raw(o["data"]))
    p = data.shape[0]
    val = bit_stage(o["op0"], data, column_bits(m, o["operand0"], p, o["op0"] not in ("bypass", "invert")), o["reverse0"])
    if o["op1"] != "bypass":
        val = bit_stage(o["op1"], val, column_bits(m, o["operand1"], p, o["op1"] != "invert"), o["reverse1"])
    write_bits(m, o["dst"], val)


def tensor_scalar(m, o):
    """S4.10; an .indirect() dst or data (S1.7) names the columns its index gives."""
    o = resolve_indirect_operands(m, o, "tensor_scalar", ("dst", "data"))
    if is_bitvec(o["op0"], o["op1"]):
        return tensor_scalar_bits(m, o)
    data = m.read(o["data"])
    p = data.shape[0]
    val = alu_stage(o["op0"], data, m.column(o["operand0"], p, o["op0"] != "bypass"), o["reverse0"])
    if o["op1"] != "bypass":
        val = alu_stage(o["op1"], val, m.column(o["operand1"], p), o["reverse1"])
    elif o.get("operand1") is not None:
        m.column(o["operand1"], p, used=False)
    m.write(o["dst"], val)


# ---- random programs ----

def int_bits(b):
    """A random int32 operand: a shift amount (some of 32 or more) or a bit mask."""
    return b.pick([int(b.rng.integers(0, 40)), int(b.rng.integers(-2 ** 31, 2 ** 31)), 0x0F0F0F0F, -1, 1])


def int_operand(b, s, c):
    if b.chance(0.6):
        return int_bits(b)
    dt = b.pick(INTS)
    t = b.tile(dt, b.shifted(s, c), c, [1], compute_mem(b))
    b.load(t, b.values(dt, (c, 1)))
    return t


def emit_tensor_scalar_bitvec(b):
    """Bitvec operators on integer tiles (S7: bit patterns, no conversion)."""
    s, c = b.lanes()
    free = b.free_shape()
    n = int(np.prod(free))
    ddt = b.pick(INTS)
    data = b.tile(ddt, s, c, free, compute_mem(b))
    b.load(data, b.values(ddt, (c, n)))
    op0 = b.pick(BITVEC_ALU)  # at least one bitvec operator: the integer operands need it
    ops = {"data": data, "op0": op0, "operand0": int_operand(b, s, c)}
    if op0 != "bypass" and b.chance(0.3):
        ops["reverse0"] = True
    if b.chance(0.5):
        op1 = b.pick(BITVEC_ALU + ["bypass"])
        ops["op1"] = op1
        if op1 != "bypass":
            ops["operand1"] = int_operand(b, s, c)
            if b.chance(0.3):
                ops["reverse1"] = True
    dst = data if b.chance(0.15) else b.tile(b.pick(INTS), b.shifted(s, c), c, free, compute_mem(b))
    b.instr("tensor_scalar", dst=dst, **ops)
    b.store(dst)


def pick_alu(b):
    """An arithmetic operator: the classic ones, NKI 0.6's other binary rows, or a unary one."""
    r = b.rng.random()
    if r < 0.45:
        op = b.pick(list(ALU_SPELLINGS))
        return op, spelled(b, ALU_SPELLINGS, op)
    if r < 0.85:
        op = b.pick(list(MORE_ALU_SPELLINGS))
        return op, spelled(b, MORE_ALU_SPELLINGS, op)
    op = b.pick(UNARY_ALU)
    return op, op


def emit_tensor_scalar(b):
    if b.chance(0.25):
        return emit_tensor_scalar_bitvec(b)
    s, c, free, ddt, data = general_data(b)
    op0, op0_text = pick_alu(b)
    op1, op1_text = pick_alu(b) if b.chance(0.6) else (None, None)
    operand0, _ = scalar_or_column(b, s, c, -3, 3)
    if op0 in ("equal", "not_equal") and b.chance(0.5):
        operand0 = float(b.pick([0, 1, -1, 2]))  # hits equal elements of small data
    ops = {"data": data, "op0": op0_text, "operand0": operand0}
    if op0 != "bypass" and b.chance(0.4):
        ops["reverse0"] = True
    if op1 is not None:
        ops["op1"] = op1_text
        if op1 != "bypass" or b.chance(0.3):
            ops["operand1"], _ = scalar_or_column(b, s, c, -3, 3)
        if op1 != "bypass" and b.chance(0.4):
            ops["reverse1"] = b.chance(0.8)
    if b.chance(0.15):
        dst = data
    else:
        dst = b.tile(any_dtype(b), b.shifted(s, c), c, free if b.chance(0.7) else [int(np.prod(free))], compute_mem(b))
    b.instr("tensor_scalar", dst=dst, **ops)
    b.store(dst)


def emit_tensor_scalar_indirect(b):
    """S1.7 (trn3): dst and/or data indirect; operands scalars or [P, 1] columns."""
    def operands(b, start, parts, n):
        op0, op0_text = pick_alu(b)
        ops = {"op0": op0_text, "operand0": scalar_or_column(b, start, parts, -3, 3)[0]}
        if b.chance(0.5):
            ops["op1"] = pick_alu(b)[1]
            ops["operand1"] = scalar_or_column(b, start, parts, -3, 3)[0]
        return ops
    emit_indirect_streamed(b, "tensor_scalar", "data", operands)


BLOCKS = [Block(emit_tensor_scalar, 1.2, order=7, lockstep=0.4),
          Block(emit_tensor_scalar_indirect, 0.3, needs=lambda b: b.arch == "trn3", lockstep=0.4)]
