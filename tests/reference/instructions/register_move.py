"""`register_move` (the engine sequencers), docs/SEMANTICS.md S17.1 (NKI 0.6
nki.isa.register_move): the reference model's semantics and its random
instances."""
import numpy as np

from gen_common import Block

RULE = "S17.1"


# ---- semantics ----

def register_move(m, o):
    """dst takes src: an int32 constant, or another register's value (a register
    nothing has set is a fault, S17.1)."""
    m.write_register(o["dst"].name, m.register_or_int(o["src"]))


# ---- random programs ----

# int32 constants: small ones, and the ends of the range (two's complement, S17.1)
EDGE_VALUES = [0, 1, -1, 2 ** 31 - 1, -2 ** 31, 2 ** 30, -(2 ** 30) - 7]


def int32_value(b):
    if b.chance(0.3):
        return b.pick(EDGE_VALUES)
    return int(b.rng.integers(-2 ** 31, 2 ** 31)) if b.chance(0.3) else int(b.rng.integers(-1000, 1000))


def emit_register_values(b):
    """Registers set by constants and by each other, loaded from one int32
    element of SBUF or HBM, and stored back into one element of SBUF or HBM
    (register_load, register_store: S17.1), the stored elements dumped."""
    out = b.hbm("i32", [1, 4], "output")
    first, second, loaded = b.reg(), b.reg(), b.reg()
    b.instr("register_move", dst=first, src=int32_value(b))
    b.instr("register_move", dst=second, src=first if b.chance(0.5) else int32_value(b))
    b.instr("register_store", dst=f"{out}[0, 0]", src=first)
    if b.chance(0.5):  # through one element of SBUF, then DMA
        element = b.sbuf_element()
        b.instr("register_store", dst=element, src=second)
        b.instr("dma_copy", dst=f"{out}[0:1, 1:2]", src=element)
    else:
        b.instr("register_store", dst=f"{out}[0, 1]", src=second)
    value = np.array([[int32_value(b)]])
    if b.chance(0.5):
        src = b.hbm("i32", [1, 1], "input", value)
        b.instr("register_load", dst=loaded, src=f"{src}[0, 0]" if b.chance(0.5) else src)
    else:
        src = b.sbuf_element()
        b.instr("dma_copy", dst=src, src=b.hbm("i32", [1, 1], "input", value))
        b.instr("register_load", dst=loaded, src=src)
    b.instr("register_store", dst=f"{out}[0, 2]", src=loaded)
    b.instr("register_move", dst=loaded, src=second)  # a register set again
    b.instr("register_store", dst=f"{out}[0, 3]", src=loaded)
    b.features.add("registers")


BLOCKS = [Block(emit_register_values, 0.3, lockstep=0.25)]
