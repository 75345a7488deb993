"""`register_op` (the engine sequencers), docs/SEMANTICS.md S17.1 (NKI 0.7
NkiScalar arithmetic: a traced `i * 4 + 1`): the reference model's semantics
and its random instances."""
from gen_common import Block
from instructions.register_move import int32_value
from ref_machine import int32

RULE = "S17.1"

# NKI 0.7 NkiScalar: +, -, *, on 32 bits, wrapping around (two's complement)
OPS = {"add": lambda a, b: a + b, "subtract": lambda a, b: a - b, "multiply": lambda a, b: a * b}
SPELLINGS = {"add": ["add"], "subtract": ["subtract", "sub"], "multiply": ["multiply", "mul"]}


# ---- semantics ----

def register_op(m, o):
    """dst = src0 op src1, computed exactly and wrapped to int32 (S17.1)."""
    m.write_register(o["dst"].name, int32(OPS[o["op"]](m.register_or_int(o["src0"]), m.register_or_int(o["src1"]))))


# ---- random programs ----

def emit_register_arithmetic(b):
    """A few register_ops on registers and constants, some wrapping past the int32
    range, one reading and writing the same register; each result stored to an
    int32 output element."""
    steps = int(b.rng.integers(2, 6))
    out = b.hbm("i32", [1, steps], "output")
    regs = [b.reg() for _ in range(2)]
    for r in regs:
        b.instr("register_move", dst=r, src=int32_value(b))
    for k in range(steps):
        op = b.pick(list(OPS))
        a = b.pick(regs) if b.chance(0.8) else int32_value(b)
        c = b.pick(regs) if b.chance(0.5) else int32_value(b)
        dst = b.pick(regs) if b.chance(0.6) else b.reg()
        b.instr("register_op", dst=dst, src0=a, src1=c, op=b.pick(SPELLINGS[op]))
        b.instr("register_store", dst=f"{out}[0, {k}]", src=dst)
        if dst not in regs:
            regs.append(dst)
    b.features.add("register arithmetic")


BLOCKS = [Block(emit_register_arithmetic, 0.3, lockstep=0.25)]
