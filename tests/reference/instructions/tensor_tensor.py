"""`tensor_tensor` (Vector), docs/SEMANTICS.md S4.11:
the reference model's semantics and its random instances."""
import numpy as np

from gen_common import ALU_SPELLINGS, any_dtype, BITVEC_ALU, Block, compute_mem, INTS, MORE_ALU_SPELLINGS, spelled
from ref_common import ALU, bits_of, BITVEC, F32, is_bitvec, write_bits

RULE = "S4.11"


# ---- semantics ----

def tensor_tensor(m, o):
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


BLOCKS = [Block(emit_tensor_tensor, 1.0, order=8, lockstep=0.6)]
