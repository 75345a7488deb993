"""Random instances of each instruction, respecting isa-spec/isa.json's operand
dtypes and memories. Each emitter declares and loads its operands, emits the
instruction and stores what it wrote. Accumulating ones take the lanes and the
reduce_cmd from the caller so chains can be built from them (S3)."""
import numpy as np

import nki_ref
import ref_dtypes
from gen_builder import FP32_MIN, Tile

F32 = np.float32
FLOATS = ["f32", "bf16", "f16", "tf32", "fp8e4m3", "fp8e4m3fn", "fp8e5m2"]
INTS = ["i8", "i16", "i32", "u8", "u16", "u32"]
# Functions whose float32 result is the correctly rounded value of the float32
# input (so nisa and the model agree bit for bit, whatever the output dtype).
EXACT_ACTIVATIONS = ["copy", "identity", "relu", "abs", "sign", "square", "sqrt", "reciprocal", "prelu"]
ACTIVATIONS = list(nki_ref.ACTIVATIONS)
COMPARE_SPELLINGS = {"equal": ["equal", "eq"], "less": ["less", "lt"], "less_equal": ["less_equal", "le"],
                     "greater": ["greater", "gt"], "greater_equal": ["greater_equal", "ge"]}
ALU_SPELLINGS = {"bypass": ["bypass"], "add": ["add"], "subtract": ["subtract", "sub"],
                 "multiply": ["multiply", "mul"], "maximum": ["maximum", "max"], "minimum": ["minimum", "min"]}
# NKI 0.6's operator table beyond those (nki.api.shared.rst): arithmetic
# binary and unary rows (float32), and the bitvec rows (integer bit patterns).
MORE_ALU_SPELLINGS = {"equal": ["equal", "eq"], "not_equal": ["not_equal", "ne"], "less": ["less", "lt"],
                      "less_equal": ["less_equal", "le"], "greater": ["greater", "gt"],
                      "greater_equal": ["greater_equal", "ge"], "logical_and": ["logical_and"],
                      "logical_or": ["logical_or"], "logical_xor": ["logical_xor"], "power": ["power"],
                      "abs_max": ["abs_max"], "abs_min": ["abs_min"]}
UNARY_ALU = ["abs", "square", "relu", "rsqrt", "reciprocal"]
BITVEC_ALU = ["bitwise_and", "bitwise_or", "bitwise_xor", "invert", "left_shift", "right_shift"]
REDUCE_SPELLINGS = {"add": ["add"], "maximum": ["maximum", "max", "amax"], "minimum": ["minimum", "min", "amin"],
                    "abs_max": ["abs_max"], "abs_min": ["abs_min"]}
MORE_REDUCE = ["subtract", "multiply", "logical_and", "logical_or", "logical_xor"]
BITVEC_REDUCE = ["bitwise_and", "bitwise_or", "bitwise_xor"]
ACTIVATE2_PAIRS = [("multiply", "add"), ("multiply", "subtract"), ("multiply", "bypass"),
                   ("add", "bypass"), ("subtract", "bypass"), ("bypass", "bypass")]


def any_dtype(b, float_share=0.75):
    if b.chance(float_share):
        return "f32" if b.chance(0.4) else b.pick(FLOATS)
    return b.pick(INTS)


def float_dtype(b):
    return "f32" if b.chance(0.4) else b.pick(FLOATS)


def compute_mem(b):
    return "psum" if b.chance(0.2) else "sbuf"


def spelled(b, table, name):
    return b.pick(table[name])


def reduce_res_tile(b, s, c, exact):
    """[P, 1] float tile for reduce_res; float32 unless the reduced values are exact (S3)."""
    return b.tile(float_dtype(b) if exact else "f32", s, c, [1], compute_mem(b))


def scalar_or_column(b, s, c, lo, hi, dtype=None):
    """A scalar literal or a [P, 1] tile; returns (operand, float32 column values)."""
    if b.chance(0.5):
        v = float(b.values("f32", (1,), lo, hi)[0])
        return v, np.full((c, 1), v, dtype=F32)
    t, values = b.column(s, c, lo, hi, dtype or float_dtype(b))
    return t, np.asarray(values, dtype=F32).reshape(c, 1)


def reduce_cmd_text(b, cmd):
    return None if cmd == "idle" and b.chance(0.5) else cmd


# ---- GpSimd and Vector data instructions ----

def emit_memset(b):
    s, c = b.lanes()
    dtype = any_dtype(b)
    mem = compute_mem(b)
    t = b.tile(dtype, s, c, b.free_shape(), mem)
    if b.chance(0.5):
        b.load(t, b.values(dtype, (c, t.elems)))
    target = t
    if b.chance(0.3) and c > 1:
        ss, cc = b.sub_lanes(s, c)
        target = Tile(t.name, dtype, t.mem, ss, cc, t.free, False, t.col_offset, t.windowed, t.decl_free)  # aligned sub-range (S1.5)
    if dtype in INTS:
        value = int(b.values(dtype, (1,))[0])
    else:
        value = b.pick([float(b.values("f32", (1,), -100, 100)[0]), FP32_MIN, float("inf"), -0.0,
                        300.0, 500.0, 70000.0, 1.00390625, 0.1, -2.5])
    b.instr("memset", dst=target, value=value)
    b.store(t)


def emit_iota(b):
    s, c = b.lanes()
    dtype = any_dtype(b)
    free = b.free_shape(64)
    n = int(np.prod(free))
    if dtype in INTS:
        base, ps, fs = int(b.rng.integers(-40, 41)), int(b.rng.integers(-2, 4)), int(b.rng.integers(-2, 4))
        lo = min(base, base + (c - 1) * ps) + min(0, (n - 1) * fs)
        hi = max(base, base + (c - 1) * ps) + max(0, (n - 1) * fs)
        limits = {"i8": (-128, 127), "i16": (-32768, 32767), "u8": (0, 255), "u16": (0, 65535)}
        a, z = limits.get(dtype, (-2 ** 31, 2 ** 31 - 1) if dtype == "i32" else (0, 2 ** 32 - 1))
        if lo < a or hi > z:
            dtype = "i32"
    else:
        base = float(b.pick([0, 1, -3.5, 10.25, 100]))
        ps = float(b.pick([0, 1, -1, 0.5, 2, 0.25]))
        fs = float(b.pick([1, 0, 0.5, -0.25, 3]))
    t = b.tile(dtype, s, c, free, "sbuf")
    ops = {"dst": t}
    if base != 0 or b.chance(0.5):
        ops["base"] = base
    if ps != 0 or b.chance(0.5):
        ops["partition_step"] = ps
    if fs != 1 or b.chance(0.5):
        ops["free_step"] = fs
    b.instr("iota", **ops)
    b.store(t)


def emit_nonzero_with_count(b):
    s, c = b.lanes()
    dtype = b.pick(["f32", "i32"])
    free = b.free_shape(40)
    n = int(np.prod(free))
    src = b.tile(dtype, s, c, free, "sbuf")
    v = b.values(dtype, (c, n), -5, 5, irange=(-9, 9))
    v = np.where(b.rng.random((c, n)) < b.pick([0.3, 0.6, 0.9, 1.0]), 0, v)
    if dtype == "f32":
        r = b.rng.random((c, n))
        v = np.where(r < 0.05, -0.0, v)      # S4.1: -0.0 counts as zero
        v = np.where(r > 0.99, np.nan, v)    # NaN counts as nonzero
    b.load(src, v)
    dst = b.tile("i32", s, c, [n + 1], "sbuf")
    r = b.rng.random()
    if r < 0.4:
        b.instr("memset", dst=dst, value=int(b.rng.integers(-5, 100)))
    elif r < 0.7:
        b.load(dst, b.values("i32", (c, n + 1)))
    ops = {"dst": dst, "src": src}
    if b.chance(0.7):
        ops["index_offset"] = int(b.pick([0, 16, -3, int(b.rng.integers(-100000, 100000))]))
    if b.chance(0.7):
        ops["padding_val"] = int(b.pick([-1, 0, 7, int(b.rng.integers(-1000, 1000))]))
    b.instr("nonzero_with_count", **ops)
    b.store(dst)


def predicate_values(b, dtype, shape):
    v = (b.rng.random(shape) < 0.5).astype(np.int64)
    big = {"u16": 256, "u32": 65536, "i16": 256}.get(dtype)  # nonzero with a zero low byte
    if big and b.chance(0.5):
        v = np.where(b.rng.random(shape) < 0.2, big, v)
    if dtype in ("i8", "i16"):
        v = np.where(b.rng.random(shape) < 0.2, -1, v)
    return v


def emit_tensor_copy_predicated(b):
    s, c = b.lanes()
    dtype = any_dtype(b, 0.6)
    free = b.free_shape()
    n = int(np.prod(free))
    pmem = compute_mem(b)
    dst = b.tile(dtype, s, c, free, compute_mem(b))
    b.load(dst, b.values(dtype, (c, n), specials=True))
    pdt = b.pick(["u8", "u16", "u32"])
    pred = b.tile(pdt, b.shifted(s, c), c, free if b.chance(0.7) else [n], pmem)
    b.load(pred, predicate_values(b, pdt, (c, n)))
    if b.chance(0.3):
        src = int(b.values(dtype, (1,))[0]) if dtype in INTS else float(b.values(dtype, (1,), -50, 50)[0])
    else:
        src = b.tile(dtype, b.shifted(s, c), c, [n] if b.chance(0.3) else free,
                     "sbuf" if pmem == "psum" else compute_mem(b))
        b.load(src, b.values(dtype, (c, n), specials=True))
    rev = b.chance(0.4)
    b.instr("tensor_copy_predicated", dst=dst, src=src, predicate=pred,
            reverse_pred=rev if (rev or b.chance(0.3)) else None)
    b.store(dst)


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
    s, c = b.lanes()
    free = b.free_shape()
    n = int(np.prod(free))
    ddt = any_dtype(b)
    data = b.tile(ddt, s, c, free, compute_mem(b))
    b.load(data, b.values(ddt, (c, n), -8, 8, specials=b.chance(0.3)))
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
        dst = b.tile(any_dtype(b), b.shifted(s, c), c, free if b.chance(0.7) else [n], compute_mem(b))
    b.instr("tensor_scalar", dst=dst, **ops)
    b.store(dst)


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


def emit_tensor_reduce(b):
    s, c = b.lanes()
    free = b.free_shape()
    n = int(np.prod(free))
    r = b.rng.random()
    if r < 0.2:  # bitvec reductions fold integer bit patterns
        op = b.pick(BITVEC_REDUCE)
        ddt = b.pick(INTS)
        data = b.tile(ddt, s, c, free, compute_mem(b))
        b.load(data, b.values(ddt, (c, n)))
        dst = b.tile(b.pick(INTS), b.shifted(s, c), c, [1], compute_mem(b))
        b.instr("tensor_reduce", dst=dst, data=data, op=op)
        b.store(dst)
        return
    op = b.pick(list(REDUCE_SPELLINGS)) if r < 0.7 else b.pick(MORE_REDUCE)
    ddt = any_dtype(b)
    data = b.tile(ddt, s, c, free, compute_mem(b))
    if op == "multiply":  # factors near 1 keep long products finite and well conditioned
        b.load(data, b.values(ddt, (c, n), 0.9, 1.1, irange=(-1, 2)))
    elif op in ("subtract", "logical_and", "logical_or", "logical_xor"):
        b.load(data, b.values(ddt, (c, n), -2, 2, specials=b.chance(0.2)) if op != "subtract" else
               b.values(ddt, (c, n), 0.1, 4, irange=(0, 1000)))
    elif op == "add":  # S3: add may be reordered; keep every term positive
        b.load(data, b.values(ddt, (c, n), 0.1, 4, irange=(0, 1000)))
    else:
        b.load(data, b.values(ddt, (c, n), -8, 8, specials=b.chance(0.3)))
    exact = op not in ("add", "subtract", "multiply") or ddt in INTS
    dst = b.tile(any_dtype(b) if exact else "f32", b.shifted(s, c), c, [1], compute_mem(b))
    neg = b.chance(0.4)
    b.instr("tensor_reduce", dst=dst, data=data, op=spelled(b, REDUCE_SPELLINGS, op) if op in REDUCE_SPELLINGS else op,
            negate=neg if (neg or b.chance(0.3)) else None)
    b.store(dst)


# ---- Vector accumulator instructions (S4.3, S4.4) ----

def emit_select_reduce(b, s, c, cmd, with_res, store_dst=True):
    free = b.free_shape()
    n = int(np.prod(free))
    odt = b.pick(["f32", "f32", "bf16", "f16", "fp8e4m3", "fp8e4m3fn", "fp8e5m2", "i8", "i16", "u8", "u16"])
    pdt = b.pick(["i8", "u8", "i16", "u16"])
    omem = compute_mem(b)
    on_true = b.tile(odt, s, c, free, omem)
    b.load(on_true, b.values(odt, (c, n), -20, 20, specials=b.chance(0.2)))
    pred = b.tile(pdt, s, c, free if b.chance(0.7) else [n], "sbuf" if omem == "psum" else compute_mem(b))
    b.load(pred, predicate_values(b, pdt, (c, n)))
    on_false, _ = scalar_or_column(b, s, c, -30, 30, dtype="f32")
    if not hasattr(on_false, "name") and b.chance(0.2):
        on_false = b.pick([FP32_MIN, -1000.0, 0.0])
    dst = on_true if b.chance(0.1) else b.tile(any_dtype(b, 0.85), s, c, free, compute_mem(b))
    res = reduce_res_tile(b, s, c, exact=True) if with_res else None
    ops = {"dst": dst, "predicate": pred, "on_true": on_true, "on_false": on_false, "reduce_res": res,
           "reduce_cmd": reduce_cmd_text(b, cmd)}
    if b.chance(0.2):
        ops["reduce_op"] = spelled(b, REDUCE_SPELLINGS, "maximum")
    if b.chance(0.4):
        ops["reverse_pred"] = b.chance(0.7)
    b.instr("select_reduce", **ops)
    if store_dst or dst is on_true:
        b.store(dst)
    if res is not None:
        b.store(res)


def range_select_operands(b, s, c, n, range_start):
    """Bounds around the index window [range_start, range_start + n) (S4.4)."""
    lo, hi = range_start - 4, range_start + n + 4
    b0, _ = b.column(s, c, lo, hi, "f32")
    b1, _ = b.column(s, c, lo, hi, "f32")
    ops = (spelled(b, COMPARE_SPELLINGS, b.pick(list(COMPARE_SPELLINGS))),
           spelled(b, COMPARE_SPELLINGS, b.pick(list(COMPARE_SPELLINGS))))
    return b0, b1, ops


def emit_range_select(b, s, c, cmd, with_res, store_dst=True):
    free = b.free_shape()
    n = int(np.prod(free))
    odt = float_dtype(b)
    on_true = b.tile(odt, s, c, free, compute_mem(b))
    b.load(on_true, b.values(odt, (c, n), -50, 50, specials=b.chance(0.2)))
    range_start = b.pick([0, 0, int(b.rng.integers(-40, 40)), int(b.rng.integers(0, 5000))])
    b0, b1, (cmp0, cmp1) = range_select_operands(b, s, c, n, range_start)
    dst = on_true if b.chance(0.15) else b.tile(float_dtype(b), s, c, free, compute_mem(b))
    res = reduce_res_tile(b, s, c, exact=True) if with_res else None
    ops = {"dst": dst, "on_true_tile": on_true, "comp_op0": cmp0, "comp_op1": cmp1, "bound0": b0, "bound1": b1,
           "reduce_cmd": reduce_cmd_text(b, cmd), "reduce_res": res}
    if range_start != 0 or b.chance(0.3):
        ops["range_start"] = range_start
    if b.chance(0.2):
        ops["reduce_op"] = spelled(b, REDUCE_SPELLINGS, "maximum")
    if b.chance(0.2):
        ops["on_false_value"] = "fp32.min"
    b.instr("range_select", **ops)
    if store_dst or dst is on_true:
        b.store(dst)
    if res is not None:
        b.store(res)


# ---- NKI 0.6 signatures: iota's pattern form, tensor_reduce's axis (LANGUAGE.md 2.4) ----

def factor_shape(b, n, parts):
    """`n` split into at most `parts` factors (a random shape with n elements)."""
    shape = []
    for _ in range(parts - 1):
        divisors = [d for d in range(2, n + 1) if n % d == 0 and d <= 8]
        if not divisors or b.chance(0.3):
            break
        d = b.pick(divisors)
        shape.append(d)
        n //= d
    return shape + [n]


def emit_iota_pattern(b):
    """nki.isa.iota(dst, pattern=[[step, num], ...], offset, channel_multiplier): int32 values."""
    s, c = b.lanes()
    dtype = b.pick(["i32", "i32", "f32", "i16", "u8", "bf16", "f16"])
    free = b.free_shape(64)
    n = int(np.prod(free))
    pattern = [[int(b.rng.integers(-6, 7)), num] for num in factor_shape(b, n, b.pick([1, 2, 3, 4]))]
    t = b.tile(dtype, s, c, free, "sbuf")
    ops = {"dst": t, "pattern": pattern}
    if b.chance(0.7):
        ops["offset"] = int(b.rng.integers(-300, 301))
    if b.chance(0.7):
        ops["channel_multiplier"] = int(b.rng.integers(-4, 5))
    b.instr("iota", **ops)
    b.store(t)


def emit_tensor_reduce_axes(b):
    """nki.isa.tensor_reduce(dst, op, data, axis, negate, keepdims): the last free axes."""
    s, c = b.lanes()
    free = factor_shape(b, int(b.rng.integers(2, 97)), 3)
    if len(free) == 1:
        free = [free[0], int(b.rng.integers(1, 5))]
    rank = len(free) + 1
    first = int(b.rng.integers(1, rank))  # reduce axes first..rank-1
    axes = list(range(first, rank))
    spelled_axes = [a - rank if b.chance(0.3) else a for a in axes]
    if b.chance(0.3):
        spelled_axes.reverse()
    n = int(np.prod(free))
    op = b.pick(list(REDUCE_SPELLINGS))
    ddt = any_dtype(b)
    data = b.tile(ddt, s, c, free, compute_mem(b))
    if op == "add":  # S3: add may be reordered; keep every term positive
        b.load(data, b.values(ddt, (c, n), 0.1, 4, irange=(0, 1000)))
    else:
        b.load(data, b.values(ddt, (c, n), -8, 8, specials=b.chance(0.3)))
    keepdims = b.chance(0.5)
    kept = free[: first - 1]
    dst_free = (kept + [1] * len(axes) if keepdims else kept) or [1]
    exact = op != "add" or ddt in INTS
    dst = b.tile(any_dtype(b) if exact else "f32", b.shifted(s, c), c, dst_free, compute_mem(b))
    axis = spelled_axes[0] if len(spelled_axes) == 1 and b.chance(0.3) else spelled_axes
    b.instr("tensor_reduce", dst=dst, data=data, op=spelled(b, REDUCE_SPELLINGS, op), axis=axis,
            negate=b.chance(0.4), keepdims=keepdims if (keepdims or b.chance(0.3)) else None)
    b.store(dst)


# ---- issue 13, Tensor Engine batch (SEMANTICS.md S8) ----

MATMUL_INPUTS = ["bf16", "f16", "fp8e4m3", "fp8e5m2"]


def emit_tensor_copy(b):
    """S8.1: same dtype (bits) or another one (through float32), on an engine engine= names."""
    s, c = b.lanes()
    free = b.free_shape()
    n = int(np.prod(free))
    engines = [None, "unknown", "vector", "gpsimd"] + (["scalar"] if b.arch in ("trn2", "trn3") else [])
    engine = b.pick(engines)
    mem = (lambda: "sbuf") if engine == "gpsimd" else (lambda: compute_mem(b))
    sdt = any_dtype(b)
    src = b.tile(sdt, b.shifted(s, c), c, free if b.chance(0.8) else [n], mem())
    b.load(src, b.values(sdt, (c, n), -6, 6, specials=b.chance(0.3)))
    ddt = sdt if b.chance(0.4) else any_dtype(b)
    dst = b.tile(ddt, s, c, free, mem())
    b.instr("tensor_copy", dst=dst, src=src, engine=engine)
    b.store(dst)


def emit_nc_matmul(b):
    """S8.3: [K, M].T @ [K, N] into PSUM, sometimes tiled, accumulated, double_row or transposing."""
    v3 = b.arch in ("trn2", "trn3")
    double_row = v3 and b.chance(0.2)
    s, k = b.lanes()
    tiling = None
    if b.chance(0.3):
        rows, cols = b.pick([64, 128] + ([32] if v3 else [])), 128 if double_row else b.pick([64, 128] + ([32] if v3 else []))
        if k <= rows:
            tiling = ([b.pick(range(0, 128, rows)), b.pick(range(0, 128, cols))], [rows, cols])
    m = int(b.rng.integers(1, (tiling[1][1] if tiling else 128) + 1))
    n = int(b.rng.integers(1, 65))
    wide = not double_row and b.chance(0.25)
    dts = ["fp8e4m3", "fp8e5m2"] if double_row else ["f32", "tf32"] if wide else MATMUL_INPUTS
    split = [2] if double_row else []
    ops = []
    for f in (m, n):
        dt = b.pick(dts)
        t = b.tile(dt, s, k, split + [f], "sbuf")
        b.load(t, b.values(dt, (k, (2 if double_row else 1) * f), -3, 3))
        ops.append(t)
    transpose = not double_row and b.chance(0.15)
    ddt = "bf16" if b.arch == "trn3" and b.chance(0.3) else "f32"
    dst = b.tile(ddt, 0, m, [n], "psum")
    if dst.mem != "psum":  # PSUM budget used up
        return
    extra = {}
    if tiling:
        extra = {"tile_position": f"[{tiling[0][0]}, {tiling[0][1]}]", "tile_size": f"[{tiling[1][0]}, {tiling[1][1]}]"}
    common = dict(dst=dst, stationary=ops[0], moving=ops[1], is_transpose=True if transpose else None,
                  perf_mode=("double_row" if b.chance(0.5) else "double_row_gen3") if double_row else None, **extra)
    b.instr("nc_matmul", accumulate=b.pick([False, None]), **common)
    if b.chance(0.5):  # a second product onto the first: true, or None (an earlier nc_matmul wrote dst)
        b.instr("nc_matmul", accumulate=b.pick([True, None]), is_moving_onezero=b.pick([None, True]), **common)
    b.store(dst)


def emit_nc_transpose(b):
    """S8.4: [P, F] -> [F, P], bits, on the Tensor Engine (SBUF -> PSUM) or the Vector Engine (<= 32 x 32)."""
    vector = b.chance(0.4)
    if vector:
        s, p = b.pick([0, 32, 64, 96]), int(b.rng.integers(1, 33))
        f = int(b.rng.integers(1, 33))
    else:
        s, p = b.lanes()
        f = int(b.rng.integers(1, 129))
    dt = any_dtype(b)
    free = [f] if f < 4 or f % 2 or b.chance(0.7) else [2, f // 2]
    data = b.tile(dt, s, p, free, compute_mem(b) if vector else "sbuf")
    b.load(data, b.values(dt, (p, f), -6, 6, specials=b.chance(0.3)))
    dst = b.tile(dt, 0, f, [p], compute_mem(b) if vector else "psum")
    if not vector and dst.mem != "psum":
        return
    b.instr("nc_transpose", dst=dst, data=data, engine=b.pick(["vector"] if vector else [None, "unknown", "tensor"]))
    b.store(dst)
# ---- issue 13, statistics and selection (SEMANTICS.md S4.30-S4.35) ----

def emit_bn_stats(b):
    s, c = b.lanes()
    free = b.free_shape(200)
    n = int(np.prod(free))
    ddt = any_dtype(b)
    data = b.tile(ddt, s, c, free, compute_mem(b))
    b.load(data, b.values(ddt, (c, n), -8, 8, specials=b.chance(0.2)))
    dst = b.tile(float_dtype(b), s, c, [6], compute_mem(b))
    b.instr("bn_stats", dst=dst, data=data)
    b.store(dst)


def emit_bn_aggr(b):
    """Triples either from bn_stats instructions or loaded at random (counts 0 included)."""
    s, c = b.lanes()
    k = int(b.rng.integers(1, 6))
    if b.chance(0.5):
        stats = b.tile("f32", s, c, [3 * k], compute_mem(b))
        counts = b.rng.integers(0, 300, size=(c, k)) * (b.rng.random((c, k)) > 0.2)
        values = np.stack([counts.astype(np.float64), b.values("f32", (c, k), -4, 4), b.values("f32", (c, k), 0, 100)], axis=2)
        b.load(stats, values.reshape(c, 3 * k))
    else:  # NKI's pattern: several bn_stats into slices of one tile
        name = b.fresh("t")
        b.decls.append(f".sbuf {name} f32 [128, {6 * k}]")
        for j in range(k):
            n = int(b.rng.integers(1, 65))
            data = b.tile("f32", s, c, [n], "sbuf")
            b.load(data, b.values("f32", (c, n), -8, 8))
            b.instr("bn_stats", dst=f"{name}[{s}:{s + c}, {6 * j}:{6 * j + 6}]", data=data)
        stats = f"{name}[{s}:{s + c}]"
    dst = b.tile(float_dtype(b), s, c, [2], compute_mem(b))
    b.instr("bn_aggr", dst=dst, data=stats)
    b.store(dst)


def selection_data(b, dtype, c, n):
    """Values with ties (a small integer grid at times) and, at times, specials."""
    if b.chance(0.4):
        return b.values(dtype, (c, n), -3, 3, irange=(-3, 3)).round()
    return b.values(dtype, (c, n), -8, 8, specials=b.chance(0.3))


def emit_max8(b):
    s, c = b.lanes()
    free = b.free_shape(200)
    n = max(8, int(np.prod(free)))
    free = free if int(np.prod(free)) == n else [n]
    sdt = any_dtype(b)
    src = b.tile(sdt, s, c, free, compute_mem(b))
    b.load(src, selection_data(b, sdt, c, n))
    dst = b.tile(any_dtype(b) if b.chance(0.3) else sdt, s, c, [8], compute_mem(b))
    b.instr("max8", dst=dst, src=src)
    b.store(dst)


def selection_operands(b):
    """(lanes, data tile, vals tile) with vals drawn mostly from data (duplicates, misses)."""
    s, c = b.lanes()
    free = b.free_shape(120)
    n = max(8, int(np.prod(free)))
    free = free if int(np.prod(free)) == n else [n]
    ddt = any_dtype(b)
    data = b.tile(ddt, s, c, free, compute_mem(b))
    stored = b.load(data, selection_data(b, ddt, c, n))
    pick = b.rng.integers(0, n, size=(c, 8))
    vals_values = np.take_along_axis(np.asarray(stored, dtype=np.float64).reshape(c, n), pick, axis=1)
    miss = b.rng.random((c, 8)) < 0.15
    vals_values = np.where(miss, b.values(ddt, (c, 8), -8, 8), vals_values)
    vals = b.tile(ddt if b.chance(0.8) else any_dtype(b), s, c, [8], compute_mem(b))
    b.load(vals, vals_values)
    return s, c, data, vals


def emit_nc_find_index8(b):
    s, c, data, vals = selection_operands(b)
    dst = b.tile(b.pick(["u32", "u16"]), s, c, [8], compute_mem(b))
    b.instr("nc_find_index8", dst=dst, data=data, vals=vals)
    b.store(dst)


def emit_nc_match_replace8(b):
    s, c, data, vals = selection_operands(b)
    imm = b.pick([float("-inf"), 0.0, -1.5, float(b.values("f32", (1,), -100, 100)[0])])
    ops = {"imm": imm}
    if b.chance(0.2):
        dst = data  # NKI's in-place form
    else:
        dst = b.tile(b.pick(["f32", data.dtype, float_dtype(b)]), s, c, data.free, compute_mem(b))
    if b.chance(0.7):
        ops["dst_idx"] = b.tile(b.pick(["u32", "u16"]), s, c, [8], compute_mem(b))
    b.instr("nc_match_replace8", dst=dst, data=data, vals=vals, **ops)
    b.store(dst)
    if "dst_idx" in ops:
        b.store(ops["dst_idx"])


def emit_sequence_bounds(b):
    n = int(b.rng.integers(1, 200))
    idt = b.pick(["f32", "i32"])
    ids = b.tile(idt, 0, 1, [n], "sbuf")
    segments = np.sort(b.rng.integers(0, max(2, n // 3), size=n))
    if b.chance(0.5):  # unsorted IDs, padding in between
        segments = b.rng.integers(0, 4, size=n)
    b.load(ids, segments.reshape(1, n).astype(np.float64))
    dst = b.tile(b.pick(["f32", "i32"]), 0, 1, [2, n], "sbuf")
    b.instr("sequence_bounds", dst=dst, segment_ids=ids)
    b.store(dst)


def emit_topk(b):
    """Groups of 16 partitions, each a snake of n bf16 values (ties from a small grid at times)."""
    groups = int(b.rng.integers(1, 3))
    s, c = b.pick([0, 32, 64, 96]) if groups == 1 else b.pick([0, 64]), 16 * groups
    n = int(b.rng.integers(8, 160))
    columns = -(-n // 16) + int(b.rng.integers(0, 3))
    src = b.tile("bf16", s, c, [columns], "sbuf")
    b.load(src, selection_data(b, "bf16", c, columns))
    k = int(b.rng.integers(1, min(n, 40) + 1))
    val_dst = b.tile("bf16", s, c, [k], "sbuf")
    idx_dst = b.tile("u32", s, c, [k], "sbuf")
    b.instr("topk", val_dst=val_dst, idx_dst=idx_dst, src=src, n=n)
    b.store(val_dst)
    b.store(idx_dst)


# ---- issue 13: data movement (docs/SEMANTICS.md S11) ----

TWO_BYTE = ["bf16", "f16", "i16", "u16"]


def emit_dma_transpose(b):
    """nki.isa.dma_transpose(dst, src, axes): 2-, 3- or 4-D src from HBM (2-D also from SBUF)."""
    dtype = b.pick(TWO_BYTE)
    rank = b.pick([2, 2, 3, 4])
    shape = [int(b.rng.integers(1, 9)) for _ in range(rank - 1)] + [int(b.rng.integers(1, 129))]
    axes = nki_ref.TRANSPOSE_AXES[rank]
    values = b.values(dtype, (shape[0], int(np.prod(shape[1:]))), -100, 100)
    if rank == 2 and b.chance(0.4):
        src = b.tile(dtype, int(b.rng.integers(0, 128 - shape[0] + 1)), shape[0], [shape[1]], "sbuf")
        b.load(src, values)
    else:
        src = b.hbm(dtype, shape, "input", values.reshape(shape))
    dst_free = [shape[a] for a in axes[1:]]
    dst = b.tile(dtype, int(b.rng.integers(0, 128 - shape[-1] + 1)), shape[-1], dst_free, "sbuf")
    b.instr("dma_transpose", dst=dst, src=src, axes=list(axes) if b.chance(0.5) else None,
            dge_mode=b.pick([None, "hwdge", "swdge"]))
    b.store(dst)


def emit_nc_stream_shuffle(b):
    """nki.isa.nc_stream_shuffle(dst, src, shuffle_mask): quadrants of 32 partitions, 255 keeps."""
    s, c = b.lanes()  # S1.5 starts are the docstring's quadrant starts too
    dtype = any_dtype(b)
    free = b.free_shape(48)
    n = int(np.prod(free))
    src_count = 1 if c <= 32 and b.chance(0.2) else c
    last = c - 32 * ((c - 1) // 32)  # partitions of dst's last quadrant
    mask = []
    for i in range(32):
        limit = min(32, src_count)
        if i < last and src_count == c:
            limit = min(limit, src_count - 32 * ((c - 1) // 32))
        mask.append(255 if b.chance(0.2) else int(b.rng.integers(0, limit)))
    if src_count == c and b.chance(0.3):  # in place
        dst = src = b.tile(dtype, s, c, free, compute_mem(b))
        b.load(src, b.values(dtype, (c, n), -50, 50))
    else:
        src = b.tile(dtype, b.pick([0, 32, 64, 96]) if src_count < c else s, src_count, free, compute_mem(b))
        b.load(src, b.values(dtype, (src_count, n), -50, 50))
        dst = b.tile(dtype, s, c, free, compute_mem(b))
        b.load(dst, b.values(dtype, (c, n), -50, 50))
    b.instr("nc_stream_shuffle", dst=dst, src=src, shuffle_mask=mask)
    b.store(dst)


def emit_local_gather(b):
    """nki.isa.local_gather(dst, src_buffer, index, num_elem_per_idx, num_valid_indices)."""
    s, c = b.pick([(0, 16), (32, 16), (64, 16), (96, 16), (0, 32), (96, 32), (0, 64), (64, 64), (0, 48),
                   (0, 128), (0, 96)])
    dtype = any_dtype(b)
    n = int(b.rng.integers(1, 65))
    width = b.pick([w for w in (1, 2, 4, 8, 16, 32) if w <= n])
    k = int(b.rng.integers(1, 4))
    valid = int(b.rng.integers(1, 16 * k + 1)) if b.chance(0.6) else None
    used = valid if valid is not None else 16 * k
    src = b.tile(dtype, s, c, [n], "sbuf")
    b.load(src, b.values(dtype, (c, n), -50, 50))
    index_values = b.rng.integers(0, n - width + 1, size=(c, k))
    if b.chance(0.05):  # past the end: zero bits, and a --strict fault (S11.3)
        index_values[0, 0] = n - width + 1
    index = b.tile("u16", s, c, [k], "sbuf")
    b.load(index, index_values)
    dst = b.tile(dtype, s, c, [used * width], "sbuf")
    b.instr("local_gather", dst=dst, src_buffer=src, index=index,
            num_elem_per_idx=width if (width > 1 or b.chance(0.3)) else None, num_valid_indices=valid)
    b.store(dst)


def emit_nc_n_gather(b):
    """nki.isa.nc_n_gather(dst, data, indices): per partition, over flattened free elements."""
    s, c = b.lanes()
    dtype = any_dtype(b)
    data_free = b.free_shape(64)
    n = int(np.prod(data_free))
    free = b.free_shape(48)
    m = int(np.prod(free))
    data = b.tile(dtype, s, c, data_free, "sbuf")
    b.load(data, b.values(dtype, (c, n), -50, 50))
    index_values = b.rng.integers(0, n, size=(c, m))
    if b.chance(0.05):  # out of range: zero bits, and a --strict fault (S11.4)
        index_values[-1, -1] = n + int(b.rng.integers(0, 3))
    indices = b.tile("u32", s, c, free, "sbuf")
    b.load(indices, index_values)
    dst = b.tile(dtype, s, c, free, "sbuf")
    b.instr("nc_n_gather", dst=dst, data=data, indices=indices)
    b.store(dst)


# ---- issue 13: random numbers (docs/SEMANTICS.md S11.5) ----

def maybe_seed(b):
    """Sometimes set_rng_seed from a [1, 1] u32 or i32 tile first (else the state goes on)."""
    if b.chance(0.5):
        dtype = b.pick(["u32", "i32"])
        seed = b.tile(dtype, 0, 1, [1], "sbuf")
        b.load(seed, b.values(dtype, (1, 1)))
        b.instr("set_rng_seed", src_seeds=seed)


def emit_rng(b):
    """nki.isa.rng(dst, engine): random bits truncated to an integer dtype."""
    maybe_seed(b)
    s, c = b.lanes()
    engine = b.pick(["vector", "vector", "gpsimd"]) if b.arch in ("trn2", "trn3") else "vector"
    dst = b.tile(b.pick(INTS), s, c, b.free_shape(40), "sbuf" if engine == "gpsimd" else compute_mem(b))
    b.instr("rng", dst=dst, engine=engine if (engine != "vector" or b.chance(0.3)) else None)
    b.store(dst)


def emit_rand2(b):
    """nki.isa.rand2(dst, min, max) (v4+): uniform in [min, max) through float32."""
    maybe_seed(b)
    s, c = b.lanes()
    lo, lo_col = scalar_or_column(b, s, c, -8, 0, "f32")
    hi, _ = scalar_or_column(b, s, c, 1, 9, "f32")
    dtype = b.pick(["f32", "f32", "bf16", "f16", "tf32", "fp8e4m3", "fp8e5m2", "i8", "i16", "i32", "u8", "u16", "u32"])
    dst = b.tile(dtype, s, c, b.free_shape(40), compute_mem(b))
    b.instr("rand2", dst=dst, min=lo, max=hi)
    b.store(dst)


def emit_dropout(b):
    """nki.isa.dropout(dst, data, prob): zero where u < prob, data's bits elsewhere."""
    maybe_seed(b)
    s, c = b.lanes()
    dtype = any_dtype(b)
    free = b.free_shape(40)
    n = int(np.prod(free))
    data = b.tile(dtype, s, c, free, compute_mem(b))
    b.load(data, b.values(dtype, (c, n), -50, 50))
    prob, _ = scalar_or_column(b, s, c, 0, 1, "f32")
    dst = data if b.chance(0.2) else b.tile(dtype, b.shifted(s, c), c, free, compute_mem(b))
    b.instr("dropout", dst=dst, data=data, prob=prob)
    b.store(dst)


def emit_rand_state(b):
    """rand_set_state, draws from that state, rand_get_state (v3+; Vector forms v4+)."""
    engine = b.pick(["gpsimd", "vector"]) if b.arch == "trn3" else "gpsimd"
    words = 24 if engine == "vector" else 6
    s, c = b.lanes()
    src = b.tile("u32", s, c, [words], "sbuf")
    b.load(src, b.rng.integers(0, 2 ** 32, size=(c, words)))
    b.instr("rand_set_state", src_seeds=src, engine=engine if (engine != "gpsimd" or b.chance(0.3)) else None)
    drawn = b.tile(b.pick(INTS), s, c, b.free_shape(20), "sbuf")
    b.instr("rng", dst=drawn, engine=engine)
    b.store(drawn)
    dst = b.tile("u32", b.shifted(s, c), c, [words], "sbuf")
    b.instr("rand_get_state", dst=dst, engine=engine)
    b.store(dst)


# ---- issue 13, MX batch (SEMANTICS.md S13, trn3) ----

MX_PACKED = ["fp8e4m3fn_x4", "fp8e5m2_x4", "fp4e2m1fn_x4"]


def mx_scale_partitions(k):
    """Partitions a scale tile needs for k data partitions (S13: quadrant q's groups in 32q..32q+3)."""
    return 32 * (k // 32 - 1) + 4


def mx_packed_values(b, dtype, shape):
    """Random packed bits with no NaN/inf codes."""
    if dtype == "fp4e2m1fn_x4":
        return b.rng.integers(0, 1 << 16, size=shape).astype(np.int64)
    codes = b.rng.integers(0, 256, size=shape + (4,)).astype(np.uint8)
    bad = (codes & 0x7F) == 0x7F if dtype == "fp8e4m3fn_x4" else (codes & 0x7C) == 0x7C
    codes[bad] &= 0xBB
    return codes.view("<u4").reshape(shape).astype(np.int64)


def emit_quantize_mx(b):
    """S13.1: f16/bf16 [K, 4n] -> packed fp8 [K, n] and e8m0 scales."""
    k, n = b.pick([32, 64, 96, 128]), int(b.rng.integers(1, 33))
    sdt = b.pick(["f16", "bf16"])
    src = b.tile(sdt, 0, k, [4 * n], "sbuf")
    values = b.values(sdt, (k, 4 * n), -100, 100, specials=b.chance(0.2))
    if b.chance(0.5):  # groups of very different magnitudes, and all-zero groups
        values = values * np.repeat(2.0 ** b.rng.integers(-12, 4, size=(k // 8, n)), 8, axis=0).repeat(4, axis=1)
        values[:8, :4] = 0.0
        values = ref_dtypes.round_to(sdt, values.astype(np.float32)).astype(np.float64)
    b.load(src, values)
    dst = b.tile(b.pick(MX_PACKED[:2]), 0, k, [n], "sbuf")
    scale = b.tile(b.pick(["fp8e8m0", "u8"]), 0, mx_scale_partitions(k), [n], "sbuf")
    b.instr("quantize_mx", dst=dst, src=src, dst_scale=scale)
    b.store(dst)
    b.store(scale)


def emit_nc_matmul_mx(b):
    """S13.2: packed [K, M] and [K, N] with their scales into PSUM, sometimes accumulated."""
    k, m, n = b.pick([32, 64, 96, 128]), 2 * int(b.rng.integers(1, 65)), int(b.rng.integers(1, 65))
    ops = []
    for f in (m, n):
        dt = b.pick(MX_PACKED)
        t = b.tile(dt, 0, k, [f], "sbuf")
        b.load(t, mx_packed_values(b, dt, (k, f)))
        sdt = b.pick(["fp8e8m0", "u8"])
        sc = b.tile(sdt, 0, mx_scale_partitions(k), [f], "sbuf")
        b.load(sc, b.rng.integers(112, 136, size=(mx_scale_partitions(k), f)))
        ops += [t, sc]
    dst = b.tile(b.pick(["f32", "f32", "bf16"]), 0, m, [n], "psum")
    if dst.mem != "psum":  # PSUM budget used up
        return
    common = dict(dst=dst, stationary=ops[0], moving=ops[2], stationary_scale=ops[1], moving_scale=ops[3])
    b.instr("nc_matmul_mx", accumulate=b.pick([False, None]), **common)
    if b.chance(0.5):
        b.instr("nc_matmul_mx", accumulate=b.pick([True, None]), **common)
    b.store(dst)


def emit_dma_compute(b):
    """nki.isa.dma_compute(dst, srcs, reduce_op=add, scales): the float32 sum of 1 to 4 sources of
    any dtypes (SBUF tiles or HBM views of dst's shape), converted to dst's dtype (S12.1)."""
    s, c = b.lanes()
    free = b.free_shape(64)
    n = int(np.prod(free))
    dst = b.tile(any_dtype(b), b.shifted(s, c), c, free, "sbuf")
    srcs = []
    for _ in range(int(b.rng.integers(1, 5))):
        dtype = any_dtype(b)
        values = b.values(dtype, (c, n), -50, 50)
        if b.chance(0.4):
            srcs.append(b._hbm_source(dtype, values, dst))  # dst only gives the free shape
        else:
            t = b.tile(dtype, b.shifted(s, c), c, free, "sbuf")
            b.load(t, values)
            srcs.append(t.ref())
    scales = "[" + ", ".join(["1"] * len(srcs)) + "]" if b.chance(0.3) else None
    b.instr("dma_compute", dst=dst, srcs="[" + ", ".join(srcs) + "]", reduce_op="add", scales=scales)
    b.store(dst)
