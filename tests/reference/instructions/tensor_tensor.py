"""`tensor_tensor` (Vector), docs/SEMANTICS.md S4.11:
the reference model's semantics and its random instances."""
import numpy as np

from gen_common import ALU_SPELLINGS, any_dtype, BITVEC_ALU, Block, compute_mem, INTS, MORE_ALU_SPELLINGS, spelled
from gen_indirect import emit_indirect_streamed
from ref_common import ALU, bits_of, BITVEC, F32, is_bitvec, resolve_indirect_operands, write_bits

RULE = "S4.11"


# ---- semantics ----

def tensor_tensor(m, o):
    """S4.11; an .indirect() dst or data1 (S1.7) names the columns its index gives."""
    o = resolve_indirect_operands(m, o, "tensor_tensor", ("dst", "data1"))
    if is_bitvec(o["op"]):
        return write_bits(m, o["dst"], BITVEC[o["op"]](bits_of(m.read_raw(o["data1"])), bits_of(m.read_raw(o["data2"]))))
    with np.errstate(all="ignore"):
        m.write(o["dst"], ALU[o["op"]](m.read(o["data1"]), m.read(o["data2"])).astype(F32))


# ---- random programs ----

def emit_tensor_tensor(b):
    if b.chance(0.25):
        return emit_tensor_tensor_bitvec(b)
    s, c = b.lanes()
    free = b.free_shape()
    n = int(np.prod(free))
    tiles = []
    for _ in range(2):
        dt = any_dtype(b)
        t = b.tile(dt, b.shifted(s, c), c, free if b.chance(0.8) else [n], compute_mem(b))
        b.load(t, b.values(dt, (c, n), -6, 6, specials=b.chance(0.3)))
        tiles.append(t)
    r = b.rng.random()
    if r < 0.45:
        op = b.pick(["add", "subtract", "multiply", "maximum", "minimum"])
        text = spelled(b, ALU_SPELLINGS, op)
    else:
        op = b.pick(list(MORE_ALU_SPELLINGS))
        text = spelled(b, MORE_ALU_SPELLINGS, op)
    dst = tiles[0] if b.chance(0.15) else b.tile(any_dtype(b), s, c, free, compute_mem(b))
    b.instr("tensor_tensor", dst=dst, data1=tiles[0], data2=tiles[1], op=text)
    b.store(dst)


def emit_tensor_tensor_bitvec(b):
    """bitwise_and/or/xor and shifts on integer tiles of any widths (S7)."""
    s, c = b.lanes()
    free = b.free_shape()
    n = int(np.prod(free))
    tiles = []
    op = b.pick([o for o in BITVEC_ALU if o != "invert"])
    for k in range(2):
        dt = b.pick(INTS)
        t = b.tile(dt, b.shifted(s, c), c, free if b.chance(0.8) else [n], compute_mem(b))
        if k == 1 and op.endswith("shift") and b.chance(0.7):
            b.load(t, np.asarray(b.rng.integers(0, 36, (c, n))).astype(np.int64).clip(0, 127))
        else:
            b.load(t, b.values(dt, (c, n)))
        tiles.append(t)
    dst = tiles[0] if b.chance(0.15) else b.tile(b.pick(INTS), s, c, free, compute_mem(b))
    b.instr("tensor_tensor", dst=dst, data1=tiles[0], data2=tiles[1], op=op)
    b.store(dst)


def emit_tensor_tensor_indirect(b):
    """S1.7 (trn3): dst and/or data1 indirect; data2 a plain [P, N] tile."""
    def data2(b, start, parts, n):
        dt = any_dtype(b)
        t = b.tile(dt, b.shifted(start, parts), parts, [n], compute_mem(b))
        b.load(t, b.values(dt, (parts, n), -6, 6, specials=b.chance(0.3)))
        op = b.pick(["add", "subtract", "multiply", "maximum", "minimum"])
        return {"data2": t, "op": spelled(b, ALU_SPELLINGS, op)}
    emit_indirect_streamed(b, "tensor_tensor", "data1", data2)


BLOCKS = [Block(emit_tensor_tensor, 1.0, order=8, lockstep=0.6),
          Block(emit_tensor_tensor_indirect, 0.3, needs=lambda b: b.arch == "trn3", lockstep=0.4)]
