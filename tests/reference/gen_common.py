"""What the random emitters share (tests/reference/instructions/): dtype and
memory choices respecting isa-spec/isa.json's operand rules, operator
spellings, scalar-or-column operands, the activation input ranges of S5, and
`Block`, the entry of an instruction module's BLOCKS: one random block of
instructions with its weight in gen_programs' mix."""
from typing import Callable, NamedTuple, Optional

import numpy as np

import ref_common
from ref_common import F32


class Block(NamedTuple):
    """A random block of an instruction module (BLOCKS): `emit(b)` declares and loads its
    operands, emits the instruction(s) and stores what they wrote. `weight` is its share in
    gen_programs' programs, `lockstep` its weight in lockstep.LOCKSTEP_MIX (None: `weight`),
    `needs(b)` which programs may have it (by arch; None: all, or for a new block the archs
    the spec gives the instruction). `order` is its place in
    gen_programs.BLOCKS, whose order the random stream depends on: the blocks that existed
    before issue 26 keep their old places (so every seed still gives the same program); a
    new block leaves it out and comes after them, in spec order."""
    emit: Callable
    weight: float
    needs: Optional[Callable] = None
    order: Optional[float] = None
    lockstep: Optional[float] = None


def has_v3(b):
    return b.arch in ("trn2", "trn3")


def has_v4(b):
    return b.arch == "trn3"


FLOATS = ["f32", "bf16", "f16", "tf32", "fp8e4m3", "fp8e4m3fn", "fp8e5m2"]


INTS = ["i8", "i16", "i32", "u8", "u16", "u32"]


ACTIVATIONS = list(ref_common.ACTIVATIONS)


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


def any_dtype(b, float_share=0.75):
    if b.chance(float_share):
        return "f32" if b.chance(0.4) else b.pick(FLOATS)
    return b.pick(INTS)


def float_dtype(b):
    return "f32" if b.chance(0.4) else b.pick(FLOATS)


def compute_mem(b):
    return "psum" if b.chance(0.2) else "sbuf"


def maybe_gpsimd(b, ops):
    """NKI 0.7 activation/activate2 engine=gpsimd (NeuronCore-v4), now and then
    where the instance allows it: a program of NKI 0.7 (no `.nki 0.6` chosen),
    no accumulator operand, every tile in SBUF."""
    if b.arch != "trn3" or b.nki == "0.6" or ops.get("reduce_res") is not None or "reduce_op" in ops:
        return
    if ops.get("reduce_cmd") not in (None, "idle"):
        return
    if any(getattr(v, "mem", "sbuf") != "sbuf" for v in ops.values()):
        return
    if b.chance(0.4):
        ops["engine"] = "gpsimd"
        b.nki = "0.7"  # a later topk keeps to it


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


def predicate_values(b, dtype, shape):
    v = (b.rng.random(shape) < 0.5).astype(np.int64)
    big = {"u16": 256, "u32": 65536, "i16": 256}.get(dtype)  # nonzero with a zero low byte
    if big and b.chance(0.5):
        v = np.where(b.rng.random(shape) < 0.2, big, v)
    if dtype in ("i8", "i16"):
        v = np.where(b.rng.random(shape) < 0.2, -1, v)
    return v


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


def selection_data(b, dtype, c, n):
    """Values with ties (a small integer grid at times) and, at times, specials."""
    if b.chance(0.4):
        return b.values(dtype, (c, n), -3, 3, irange=(-3, 3)).round()
    return b.values(dtype, (c, n), -8, 8, specials=b.chance(0.3))


def general_data(b):
    """(start, lanes, free shape, dtype, tile) of a data operand of any dtype
    holding values in [-8, 8], with specials (inf, NaN, -0.0) now and then."""
    s, c = b.lanes()
    free = b.free_shape()
    n = int(np.prod(free))
    ddt = any_dtype(b)
    data = b.tile(ddt, s, c, free, compute_mem(b))
    b.load(data, b.values(ddt, (c, n), -8, 8, specials=b.chance(0.3)))
    return s, c, free, ddt, data


def free_of_eight_or_more(b, limit):
    """A free shape of at most about `limit` elements and at least 8 (what
    max8 and the match instructions read), and its element count."""
    free = b.free_shape(limit)
    n = max(8, int(np.prod(free)))
    return (free if int(np.prod(free)) == n else [n]), n


def selection_operands(b):
    """(lanes, data tile, vals tile) with vals drawn mostly from data (duplicates, misses)."""
    s, c = b.lanes()
    free, n = free_of_eight_or_more(b, 120)
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


ALL_ALU_SPELLINGS = {**ALU_SPELLINGS, **MORE_ALU_SPELLINGS}


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


def op_is_valid(op, pre, result, positive):
    """S5's valid input ranges, with margins; and finite (non-negative if positive) results."""
    if not np.all(np.isfinite(pre)):
        return False
    a = np.abs(pre)
    ok = {"exp": pre.max() <= 30, "log": pre.min() >= 0.01, "sqrt": pre.min() >= 1e-3,
          "rsqrt": pre.min() >= 1e-3, "reciprocal": a.min() >= 0.05, "sin": a.max() <= 3.1,
          "arctan": a.max() <= 1.5, "square": a.max() <= 1e15}.get(op, True)
    if not ok or not np.all(np.isfinite(result)):
        return False
    return not (positive and np.any(result < 0))


# Input ranges that keep each function inside S5's valid range after a scale in
# [0.5, 2] and a bias in [-0.5, 0.5] (functions marked singular get no bias).
DATA_RANGE = {"log": (0.05, 20.0), "sqrt": (0.01, 50.0), "rsqrt": (0.01, 50.0), "reciprocal": (0.1, 20.0),
              "sin": (-1.2, 1.2), "arctan": (-0.45, 0.45), "exp": (-8.0, 8.0)}


SINGULAR = ("log", "sqrt", "rsqrt", "reciprocal")


def pick_function(b, pre, relu_param, positive, allow_prelu, preferred=None):
    candidates = [op for op in ACTIVATIONS if allow_prelu or op != "prelu"]
    first = [candidates.index(preferred)] if preferred in candidates else []
    for k in first + list(b.rng.permutation(len(candidates))):
        op = candidates[int(k)]
        result = ref_common.activate(op, pre, relu_param)
        if op_is_valid(op, pre, result, positive):
            return op
    return "abs"


def data_tile(b, s, c, positive, op, max_elems=160):
    free = b.free_shape(max_elems)
    n = int(np.prod(free))
    dtype = any_dtype(b, 0.85)
    t = b.tile(dtype, s, c, free, compute_mem(b))
    lo, hi = DATA_RANGE.get(op, b.pick([(-4.0, 4.0), (-1.4, 1.4), (-12.0, 12.0)]))
    if positive:
        lo, hi = max(lo, 0.1), min(hi, 4.0) if hi > 0.2 else 4.0
    irange = (1, 20) if positive or op in SINGULAR else (-10, 10)
    values = b.values(dtype, (c, n), lo, hi, irange=irange)
    if op == "reciprocal" and b.chance(0.5):
        values = -values
    values = np.asarray(b.load(t, values), dtype=np.float64).astype(F32)
    return t, free, values
