"""Random instances of issue 13's Vector, Scalar and GpSimd instructions
(docs/SEMANTICS.md S4.20-S4.28), for the random differential test
(gen_programs.BLOCKS). Value ranges keep recurrences and products finite and
add-reductions over non-negative terms (S3: rtol for reordering)."""
import numpy as np

import nki_ref
from gen_builder import FP32_MIN
from gen_instructions import (ALU_SPELLINGS, EXACT_ACTIVATIONS, INTS, MORE_ALU_SPELLINGS, COMPARE_SPELLINGS, UNARY_ALU, any_dtype,
                              compute_mem, factor_shape, float_dtype, reduce_res_tile, scalar_or_column, spelled)
from gen_scalar import data_tile, pick_function

F32 = np.float32
ALL_ALU_SPELLINGS = {**ALU_SPELLINGS, **MORE_ALU_SPELLINGS}
SCAN_OPS = ["add", "subtract", "multiply", "maximum", "minimum", "abs_max", "abs_min", "greater", "less_equal",
            "not_equal", "logical_or"]
# Arithmetic stages whose results stay small on inputs in [-4, 4] and operands in [-3, 3].
STAGE_OPS = ["add", "subtract", "multiply", "maximum", "minimum", "abs_max", "abs_min", "equal", "greater",
             "logical_and"] + UNARY_ALU


def alu_text(b, op):
    return spelled(b, ALL_ALU_SPELLINGS, op) if op in ALL_ALU_SPELLINGS else op


def two_tiles_not_both_psum(b, s, c, free, ranges, dtypes):
    n = int(np.prod(free))
    mems = b.pick([("sbuf", "sbuf"), ("sbuf", "psum"), ("psum", "sbuf")])
    tiles = []
    for k in range(2):
        t = b.tile(dtypes[k], b.shifted(s, c), c, free if b.chance(0.8) else [n], mems[k])
        lo, hi = ranges[k]
        b.load(t, b.values(dtypes[k], (c, n), lo, hi, specials=b.chance(0.1), irange=(-2, 3)))
        tiles.append(t)
    return tiles


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


def emit_affine_select(b):
    """nki.isa.affine_select: iota's int32 affine value compared with 0 selects (S4.21)."""
    s, c = b.lanes()
    free = b.free_shape(64)
    n = int(np.prod(free))
    pattern = [[int(b.rng.integers(-6, 7)), num] for num in factor_shape(b, n, b.pick([1, 2, 3, 4]))]
    odt = any_dtype(b)
    on_true = b.tile(odt, s, c, free, "sbuf")
    b.load(on_true, b.values(odt, (c, n), -20, 20, specials=b.chance(0.2)))
    same = b.chance(0.5)
    dst = on_true if same and b.chance(0.3) else b.tile(odt if same else any_dtype(b), s, c, free, "sbuf")
    on_false = b.pick([FP32_MIN, 0.0, -1.0, 7.5, float(b.values("f32", (1,), -100, 100)[0])])
    ops = {"dst": dst, "pattern": pattern, "channel_multiplier": int(b.rng.integers(-4, 5)), "on_true_tile": on_true,
           "on_false_value": on_false}
    if b.chance(0.8):
        cmp = b.pick(list(COMPARE_SPELLINGS) + ["not_equal"])
        ops["cmp_op"] = spelled(b, {**COMPARE_SPELLINGS, "not_equal": ["not_equal", "ne"]}, cmp)
    if b.chance(0.7):
        ops["offset"] = int(b.rng.integers(-40, 41))
    b.instr("affine_select", **ops)
    b.store(dst)


CUMULATIVE_DTYPES = ["f32", "f32", "f32", "bf16", "f16", "i8", "i16", "u8", "u16"]


def emit_tensor_scalar_cumulative(b):
    """nki.isa.tensor_scalar_cumulative (S4.22): reset_reduce, load_reduce, or a chain continuing with reduce."""
    s, c = b.lanes()
    free = b.free_shape(64)
    n = int(np.prod(free))
    op1 = b.pick(["add", "subtract", "multiply", "maximum", "minimum"])
    op0 = b.pick(["add", "multiply", "maximum", "abs_max", "subtract"] + (["abs", "square"] if op1 != "multiply" else []))
    lo, hi = (0.9, 1.1) if "multiply" in (op0, op1) else (-4, 4)
    cmd = b.pick(["reset_reduce", "load_reduce", "chain"])
    for k in range(2 if cmd == "chain" else 1):
        sdt = b.pick(CUMULATIVE_DTYPES)
        src = b.tile(sdt, s, c, free, compute_mem(b))
        b.load(src, b.values(sdt, (c, n), lo, hi, irange=(1, 2) if "multiply" in (op0, op1) else (-3, 4)))
        imm0, _ = scalar_or_column(b, s, c, 0.95, 1.05, "f32") if op0 == "multiply" else \
            scalar_or_column(b, s, c, -1, 1, "f32")
        dst = src if b.chance(0.15) else b.tile(b.pick(CUMULATIVE_DTYPES[:5]), s, c, free, compute_mem(b))
        ops = {"dst": dst, "src": src, "op0": alu_text(b, op0), "op1": alu_text(b, op1), "imm0": imm0}
        this = "reduce" if k == 1 else ("reset_reduce" if cmd == "chain" else cmd)
        if this == "load_reduce":
            ops["imm1"], _ = scalar_or_column(b, s, c, -2, 2, "f32")
        if this != "reset_reduce" or b.chance(0.5):
            ops["reduce_cmd"] = this
        b.instr("tensor_scalar_cumulative", **ops)
        b.store(dst)


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


def emit_activation_reduce(b):
    """nki.isa.activation_reduce (S4.25): activation with reset_reduce into the Scalar accumulator."""
    s, c = b.lanes()
    reduce_op = b.pick(["add", "add", "maximum", "minimum"])
    positive = reduce_op == "add"
    intended = b.pick([op for op in nki_ref.ACTIVATIONS if op not in ("prelu", "log")])
    data, free, x = data_tile(b, s, c, positive, intended)
    ops = {"data": data}
    scale_col = np.ones((c, 1), dtype=F32)
    if b.chance(0.6):
        ops["scale"], scale_col = scalar_or_column(b, s, c, 0.5, 2.0)
    with np.errstate(all="ignore"):
        pre = (x * scale_col).astype(F32)
    op = pick_function(b, pre, 0.0, positive, allow_prelu=False, preferred=intended)
    # a transcendental result rounded to a narrower dtype may flip by one of its ulps
    # when float32 and float64 differ in the last bit: those go to float32 (as emit_activation)
    exact = op in EXACT_ACTIVATIONS
    dst = b.tile("f32" if not exact or b.chance(0.6) else float_dtype(b), s, c, free, compute_mem(b))
    res = reduce_res_tile(b, s, c, exact=False)
    b.instr("activation_reduce", dst=dst, op=op, **ops, reduce_op=reduce_op, reduce_res=res)
    b.store(dst)
    b.store(res)


def emit_exponential(b):
    """nki.isa.exponential (S4.26, trn3 only): exp(src - max_value), sums into the Vector accumulator."""
    if b.arch != "trn3":
        return emit_reciprocal(b)
    s, c = b.lanes()
    free = b.free_shape()
    n = int(np.prod(free))
    cmd = b.pick(["idle", "reset_reduce", "load_reduce", "chain"])
    for k in range(2 if cmd == "chain" else 1):
        sdt = b.pick(["f32", "f32", "bf16", "f16", "i8", "i16", "i32", "u8"])
        src = b.tile(sdt, s, c, free, compute_mem(b))
        b.load(src, b.values(sdt, (c, n), -6, 6, irange=(0, 8)))
        dst = b.tile("f32", s, c, free, compute_mem(b))  # exp: float32 only (see emit_activation_reduce)
        this = "reduce" if k == 1 else ("reset_reduce" if cmd == "chain" else cmd)
        ops = {"dst": dst, "src": src}
        if b.chance(0.7):
            ops["max_value"], _ = scalar_or_column(b, s, c, -1, 8, "f32")
        if this != "idle" or b.chance(0.5):
            ops["reduce_cmd"] = this
        if this == "load_reduce":
            ops["reduce_init"], _ = scalar_or_column(b, s, c, 0, 3, "f32")
        res = reduce_res_tile(b, s, c, exact=False) if this != "idle" and (k == 1 or cmd != "chain") else None
        ops["reduce_res"] = res
        b.instr("exponential", **ops)
        b.store(dst)
        if res is not None:
            b.store(res)


def emit_reciprocal(b):
    """nki.isa.reciprocal (S4.27): 1.0 / data in float32."""
    s, c = b.lanes()
    free = b.free_shape()
    n = int(np.prod(free))
    ddt = any_dtype(b)
    data = b.tile(ddt, s, c, free, compute_mem(b))
    b.load(data, b.values(ddt, (c, n), -8, 8, specials=b.chance(0.3)))
    dst = data if b.chance(0.15) and ddt not in INTS else b.tile(float_dtype(b), b.shifted(s, c), c, free,
                                                                   compute_mem(b))
    b.instr("reciprocal", dst=dst, data=data)
    b.store(dst)


def emit_tensor_partition_reduce(b):
    """nki.isa.tensor_partition_reduce (S4.28): across partitions, in order, into one partition."""
    s, c = b.lanes()
    free = b.free_shape(64)
    n = int(np.prod(free))
    op = b.pick(["add", "add", "average", "maximum", "bitwise_or", "bitwise_and"])
    if op.startswith("bitwise"):
        ddt = b.pick(INTS)
        data = b.tile(ddt, s, c, free, "sbuf")
        b.load(data, b.values(ddt, (c, n)))
        dst_dtype = b.pick(INTS)
    else:
        ddt = any_dtype(b)
        data = b.tile(ddt, s, c, free, "sbuf")
        if op == "maximum":
            b.load(data, b.values(ddt, (c, n), -8, 8, specials=b.chance(0.3)))
        else:  # S3: non-negative terms keep a reordered sum within rtol
            b.load(data, b.values(ddt, (c, n), 0.1, 4, irange=(0, 100)))
        dst_dtype = "f32" if op != "maximum" else any_dtype(b)
    dst = b.tile(dst_dtype, b.shifted(s, 1, 0.5), 1, free if b.chance(0.7) else [n], "sbuf")
    spelling = {"maximum": b.pick(["maximum", "max"]), "average": b.pick(["average", "mean"])}.get(op, op)
    b.instr("tensor_partition_reduce", dst=dst, op=spelling, data=data)
    b.store(dst)


VECOPS_BLOCKS = [(emit_tensor_tensor_scan, 0.8, None), (emit_affine_select, 0.6, None),
                 (emit_tensor_scalar_cumulative, 0.6, None), (emit_scalar_tensor_tensor, 0.6, None),
                 (emit_tensor_scalar_reduce, 0.6, None), (emit_activation_reduce, 0.5, None),
                 (emit_exponential, 0.5, None), (emit_reciprocal, 0.4, None),
                 (emit_tensor_partition_reduce, 0.5, None)]
