"""`while_loop` (the engine sequencers), docs/SEMANTICS.md S17.2 (NKI
nki.language.while_loop): the reference model's semantics and its random
instances. The walk (ref_loops.py) runs the body while cond != 0, read before
each iteration."""
import numpy as np

from gen_common import Block, has_v3

RULE = "S17.2"


# ---- semantics ----

def while_loop(m, o):
    """Changes no state: ref_loops.Walk tests cond before each iteration."""


# ---- random programs ----

def emit_while_countdown(b):
    """A loop whose condition is computed at run time: a count from HBM, either
    in a register that register_op decrements (trn2 and later), or in an int32
    tile that the Vector engine decrements and register_load reads back after
    each iteration (a data-dependent exit, every arch). The body doubles an
    accumulator and adds one (after n iterations: 2^n - 1 + 2^n * start) and
    counts up a second register used as a row index (scalar_offset=REG)."""
    n = int(b.rng.integers(0, 5))
    start = b.pick([0, 32, 64, 96])
    width = int(b.rng.integers(1, 17))
    acc = b.tile("f32", start, 1, [width])
    b.load(acc, b.values("f32", (1, width), -4, 4))
    cond = b.reg()
    counted = b.hbm("i32", [1, 1], "input", np.array([[n]]))
    by_register = has_v3(b) and b.chance(0.5)
    if by_register:
        b.instr("register_load", dst=cond, src=counted)
    else:
        cnt = b.tile("i32", start, 1, [1])
        b.instr("dma_copy", dst=cnt, src=counted)
        b.instr("register_load", dst=cond, src=cnt)
    row = None
    if by_register and b.chance(0.6):  # a second register, counted up, indexes rows of x
        row = b.reg()
        x = b.hbm("f32", [max(n, 1), width], "input", b.values("f32", (max(n, 1), width), -8, 8))
        got = b.tile("f32", start, 1, [width])
        b.instr("memset", dst=got, value=0.0)
        b.instr("register_move", dst=row, src=0)
    b.emit(f"while_loop cond={cond}")
    b.instr("tensor_scalar", dst=acc, data=acc, op0="multiply", operand0=2.0, op1="add", operand1=1.0)
    if row is not None:
        b.instr("dma_copy", dst=got, src=f"{x}.ap(pattern=[[{width}, 1], [1, {width}]], offset=0, scalar_offset={row}, "
                                          f"indirect_dim=0)")
        b.instr("register_op", dst=row, src0=row, src1=1, op="add")
    if by_register:
        b.instr("register_op", dst=cond, src0=cond, src1=1, op=b.pick(["subtract", "sub"]))
    else:
        b.instr("tensor_scalar", dst=cnt, data=cnt, op0="subtract", operand0=1.0)
        b.instr("register_load", dst=cond, src=cnt)
    b.emit("end_loop")
    b.store(acc)
    if row is not None:
        b.store(got)
    b.features.add("while_loop")


BLOCKS = [Block(emit_while_countdown, 0.3, lockstep=1.5)]
