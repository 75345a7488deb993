"""`fori_loop` (the engine sequencers), docs/SEMANTICS.md S17.2 (NKI
nki.language.fori_loop, dynamic_range): the reference model's semantics and
its random instances. What runs next is the model's walk (ref_loops.py): the
bounds read once on entry, the body once per i in range(lower, upper, step),
var = i at the top of each iteration, upper < lower a fault."""
import numpy as np

from gen_common import Block, has_v3

RULE = "S17.2"


# ---- semantics ----

def fori_loop(m, o):
    """Changes no state of its own: ref_loops.Walk reads the bounds, sets var
    at the top of each iteration and decides which position runs next."""


# ---- random programs ----

ROW_DTYPES = ["f32", "f32", "bf16", "f16", "i32", "i16"]


def dynamic_rows(x, rows, width, index, per_row=True, dim=0):
    """`rows` rows of the HBM tensor x ([R, width]) from row `index` on (S17.3:
    scalar_offset=REG; with per_row False the register holds an element
    offset, index_stride=1)."""
    stride = "" if per_row else ", index_stride=1"
    return (f"{x}.ap(pattern=[[{width}, {rows}], [1, {width}]], offset=0, scalar_offset={index}, "
            f"indirect_dim={dim}{stride})")


def emit_fori_rows(b):
    """A loop over row tiles of an HBM input whose trip count is read at run
    time (an int32 HBM scalar, register_load) or given: each iteration gathers
    rows i.. of x through scalar_offset=i (or, on trn2 and later, through a
    register_op'd element offset), adds them into an accumulator tile and
    scatters them, scaled, into the same rows of an output; sometimes a nested
    loop counting its iterations into a tile, the var overwritten in the body
    (no effect on the iterations, S17.2), a zero-trip loop; after the loop
    the var's last value stored."""
    rows_per_tile = int(b.rng.integers(1, 5))
    width = int(b.rng.integers(1, 33))
    step = b.pick([1, 1, 2])
    lower = b.pick([0, 0, 1, 2])
    trips = int(b.rng.integers(0, 5))
    upper = lower + trips * step - (step - 1 if trips and b.chance(0.5) else 0)  # range(lower, upper, step) has `trips` values
    total_rows = max(upper, lower + 1) - 1 + rows_per_tile + int(b.rng.integers(0, 3))
    dtype = b.pick(ROW_DTYPES)
    x = b.hbm(dtype, [total_rows, width], "input", b.values(dtype, (total_rows, width), -100, 100))
    y = b.hbm("f32", [total_rows, width], "output")
    i = b.reg()
    bounds = {}
    for name, value in (("lower", lower), ("upper", upper)):
        how = b.pick(["constant", "constant", "move", "load", "load"])
        if how == "constant":  # lower=0 may be left out (its default)
            bounds[name] = None if name == "lower" and value == 0 and b.chance(0.5) else value
            continue
        r = b.reg()
        if how == "load":  # a runtime bound: an int32 scalar in HBM
            b.instr("register_load", dst=r, src=b.hbm("i32", [1, 1], "input", np.array([[value]])))
        else:
            b.instr("register_move", dst=r, src=value)
        bounds[name] = r
    start = b.pick([0, 32, 64, 96])
    t = b.tile(dtype, start, rows_per_tile, [width])
    acc = b.tile("f32", start, rows_per_tile, [width])
    scaled = b.tile("f32", start, rows_per_tile, [width])
    b.instr("memset", dst=acc, value=0.0)
    arithmetic = has_v3(b) and b.chance(0.5)  # register_op: trn2 and later
    count = None
    if b.chance(0.5):
        count = b.tile("f32", start, 1, [1])
        b.instr("memset", dst=count, value=0.0)
    b.emit(f"fori_loop var={i}, " + ", ".join(f"{k}={v}" for k, v in bounds.items() if v is not None) +
           (f", step={step}" if step != 1 or b.chance(0.3) else ""))
    if arithmetic:
        offset = b.reg()
        b.instr("register_op", dst=offset, src0=i, src1=width, op=b.pick(["multiply", "mul"]))
        view = dynamic_rows(x, rows_per_tile, width, offset, per_row=False)
        out_view = dynamic_rows(y, rows_per_tile, width, offset, per_row=False)
    else:
        view = dynamic_rows(x, rows_per_tile, width, i)
        out_view = dynamic_rows(y, rows_per_tile, width, i)
    b.instr("dma_copy", dst=t, src=view)
    b.instr("tensor_tensor", dst=acc, data1=acc, data2=t, op="add")
    b.instr("tensor_scalar", dst=scaled, data=t, op0="multiply", operand0=b.pick([2.0, -0.5, 3.0]))
    b.instr("dma_copy", dst=out_view, src=scaled)
    if count is not None:  # a nested loop: its trip count from a constant or a register
        j = b.reg()
        inner = int(b.rng.integers(0, 4))
        b.emit(f"  fori_loop var={j}, upper={inner}")
        b.instr("tensor_scalar", dst=count, data=count, op0="add", operand0=1.0)
        b.emit("  end_loop")
    overwritten = b.chance(0.2)
    if overwritten:  # S17.2: the body's writes to var do not change the iterations
        b.instr("register_move", dst=i, src=1000)
    b.emit("end_loop")
    b.store(acc)
    if count is not None:
        b.store(count)
    if trips:  # the var after the loop: the last iteration's value (or what the body wrote)
        last = b.hbm("i32", [1, 1], "output")
        b.instr("register_store", dst=last, src=i)
    b.features.add("fori_loop")


BLOCKS = [Block(emit_fori_rows, 0.4, lockstep=0.8)]
