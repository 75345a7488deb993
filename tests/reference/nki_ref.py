#!/usr/bin/python3
"""Independent NumPy reference model of the nisa machine.

Written from NKI's instruction docstrings and docs/SEMANTICS.md, never from
nisa's C++ code: one small function per instruction, each following the NumPy
form of its rule (S4). Usable as a library (run_program) or like `nisa run`:

    nki_ref.py PROG.nasm [--input NAME=FILE.npy]... --dump DIR
"""
import argparse
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nasm_reader  # noqa: E402
import ref_dtypes  # noqa: E402
import ref_mx  # noqa: E402
import ref_random  # noqa: E402
from ref_machine import LANE_IDLE, LANE_OK, Machine  # noqa: E402

F32 = np.float32

# ---- S5 activation functions: float64 math, rounded to float32 ----

_erf = np.frompyfunc(math.erf, 1, 1)


_erfc = np.frompyfunc(math.erfc, 1, 1)


def erf(x):
    return _erf(x).astype(np.float64)


def _phi(x):
    """The standard normal CDF, without 1 + erf's cancellation for negative x (issue 26:
    0.5 * (1 + erf(x / sqrt 2)) is 0 in float64 below x = -8.3, where gelu is ~-1e-29)."""
    return 0.5 * _erfc(-x / math.sqrt(2.0)).astype(np.float64)


def _sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def _softplus(x):
    return np.logaddexp(0.0, x)


ACTIVATIONS = {
    "copy": lambda x, a: x,
    "identity": lambda x, a: x,
    "exp": lambda x, a: np.exp(x),
    "log": lambda x, a: np.log(x),
    "tanh": lambda x, a: np.tanh(x),
    "sigmoid": lambda x, a: _sigmoid(x),
    "relu": lambda x, a: np.maximum(x, 0.0),
    "gelu": lambda x, a: x * _phi(x),
    # 1 + tanh(y) = 2 sigmoid(2y), without the cancellation for negative y
    "gelu_apprx_tanh": lambda x, a: x * _sigmoid(2.0 * math.sqrt(2.0 / math.pi) * (x + 0.044715 * x ** 3)),
    "gelu_apprx_sigmoid": lambda x, a: x * _sigmoid(1.702 * x),
    "silu": lambda x, a: x * _sigmoid(x),
    "mish": lambda x, a: x * np.tanh(_softplus(x)),
    "square": lambda x, a: x * x,
    "sqrt": lambda x, a: np.sqrt(x),
    "rsqrt": lambda x, a: 1.0 / np.sqrt(x),
    "reciprocal": lambda x, a: 1.0 / x,
    "sin": lambda x, a: np.sin(x),
    "arctan": lambda x, a: np.arctan(x),
    "erf": lambda x, a: erf(x),
    "softplus": lambda x, a: _softplus(x),
    "abs": lambda x, a: np.abs(x),
    "sign": lambda x, a: np.sign(x),
    "prelu": lambda x, a: np.where(x >= 0, x, a * x),
    # NKI 0.6's derivative rows (nki.api.shared.rst activation table): the
    # derivatives of gelu (x Phi(x)), gelu_apprx_sigmoid (x sigmoid(1.702 x)),
    # silu (x sigmoid(x)) and erf.
    "gelu_dx": lambda x, a: _phi(x) + x * np.exp(-0.5 * x * x) / math.sqrt(2.0 * math.pi),
    "gelu_apprx_sigmoid_dx": lambda x, a: _sigmoid(1.702 * x) + 1.702 * x * _sigmoid(1.702 * x) * _sigmoid(-1.702 * x),
    "silu_dx": lambda x, a: _sigmoid(x) + x * _sigmoid(x) * _sigmoid(-x),
    "erf_dx": lambda x, a: 2.0 / math.sqrt(math.pi) * np.exp(-x * x),
}


# S5: inputs outside these ranges are a --strict fault (reciprocal: the magnitude).
VALID_RANGE = {"log": (2.0 ** -64, 2.0 ** 64), "sin": (-math.pi, math.pi), "arctan": (-math.pi / 2, math.pi / 2),
               "sqrt": (2.0 ** -116, 2.0 ** 118), "rsqrt": (2.0 ** -87, 2.0 ** 97), "reciprocal": (2.0 ** -42, 2.0 ** 42)}


def check_valid_range(m, op, x_f32):
    if op not in VALID_RANGE:
        return
    lo, hi = VALID_RANGE[op]
    x = np.abs(x_f32.astype(np.float64)) if op == "reciprocal" else x_f32.astype(np.float64)
    if np.any(~((x >= lo) & (x <= hi))):
        m.note_hazard(f"{op} input outside its valid range (S5)")


def activate(op, x_f32, relu_param):
    with np.errstate(all="ignore"):
        return ACTIVATIONS[op](x_f32.astype(np.float64), np.asarray(relu_param, dtype=np.float64)).astype(F32)


# ---- ALU and comparison operators, in float32 (S2.1) ----

def _truth(x):
    return np.asarray(x).astype(F32)


def _abs_pick(a, b, larger):
    """nl.abs_max / nl.abs_min: the input (signed) of larger / smaller magnitude, y on a tie; NaN propagates."""
    a, b = np.broadcast_arrays(np.asarray(a, dtype=F32), np.asarray(b, dtype=F32))
    wins = np.abs(a) > np.abs(b) if larger else np.abs(a) < np.abs(b)
    return np.where(np.isnan(a) | wins, a, b)


# NKI 0.6's operator table (nki.api.shared.rst), arithmetic rows: float32 in,
# float32 out; comparisons and logical operators give 1.0 / 0.0 (NKI: "1 where
# ..., 0 otherwise"; logical inputs count as true when nonzero, as NumPy's).
ALU = {
    "add": lambda a, b: F32(a) + F32(b),
    "subtract": lambda a, b: F32(a) - F32(b),
    "multiply": lambda a, b: F32(a) * F32(b),
    "maximum": np.maximum,
    "minimum": np.minimum,
    "equal": lambda a, b: _truth(F32(a) == F32(b)),
    "not_equal": lambda a, b: _truth(F32(a) != F32(b)),
    "less": lambda a, b: _truth(F32(a) < F32(b)),
    "less_equal": lambda a, b: _truth(F32(a) <= F32(b)),
    "greater": lambda a, b: _truth(F32(a) > F32(b)),
    "greater_equal": lambda a, b: _truth(F32(a) >= F32(b)),
    "logical_and": lambda a, b: _truth((F32(a) != 0) & (F32(b) != 0)),
    "logical_or": lambda a, b: _truth((F32(a) != 0) | (F32(b) != 0)),
    "logical_xor": lambda a, b: _truth((F32(a) != 0) ^ (F32(b) != 0)),
    "power": lambda a, b: np.power(np.float64(a), np.float64(b)).astype(F32),  # numpy.power, rounded once
    "abs_max": lambda a, b: _abs_pick(a, b, True),
    "abs_min": lambda a, b: _abs_pick(a, b, False),
}
# The unary rows ("Arithmetic Unary"): the operand is ignored.
UNARY = {
    "abs": lambda v: np.abs(F32(v)),
    "square": lambda v: F32(v) * F32(v),
    "relu": lambda v: np.where(F32(v) < 0, F32(0), F32(v)),
    "rsqrt": lambda v: (1.0 / np.sqrt(np.float64(v))).astype(F32),
    "reciprocal": lambda v: F32(1) / F32(v),
}
# The bitvec rows, on bit patterns zero-extended to 32 bits (uint64 here);
# results keep the low bits of dst's width. right_shift is logical (NKI lists
# arithmetic right shift as not supported); shifts by 32 or more give 0.
M32 = (1 << 32) - 1
BITVEC = {
    "bitwise_and": lambda a, b: a & b,
    "bitwise_or": lambda a, b: a | b,
    "bitwise_xor": lambda a, b: a ^ b,
    "invert": lambda a, b: ~a & M32,
    "left_shift": lambda a, b: np.where(b >= 32, 0, (a << np.minimum(b, 63)) & M32),
    "right_shift": lambda a, b: np.where(b >= 32, 0, a >> np.minimum(b, 63)),
}
UNARY_BITVEC = {"invert"}


def bits_of(raw):
    """Raw integer elements -> their bit patterns zero-extended (uint64)."""
    raw = np.asarray(raw)
    return raw.view(np.dtype(f"u{raw.dtype.itemsize}")).astype(np.uint64)


def write_bits(m, view, bits):
    """Stores the low bits of each pattern in the view's integer dtype."""
    size = ref_dtypes.itemsize(m.dtype(view))
    low = (np.asarray(bits, dtype=np.uint64) & np.uint64((1 << (8 * size)) - 1)).astype(f"u{size}")
    target = m.read_raw(view, check=False)
    m.write_raw(view, low.view(target.dtype))


def column_bits(m, operand, partitions, used=True):
    """A scalar (its int32 bits) or a [P, 1] integer tile's bit patterns, as a [P, 1] uint64 column."""
    if hasattr(operand, "dims"):
        return bits_of(m.read_raw(operand, used)).reshape(partitions, 1)
    return np.full((partitions, 1), int(operand) & M32, dtype=np.uint64)


def bit_stage(op, v, operand, reverse):
    if op == "bypass":
        return v
    if reverse and op not in UNARY_BITVEC:
        return BITVEC[op](operand, v)
    return BITVEC[op](v, operand)

COMPARE = {
    "equal": np.equal, "not_equal": np.not_equal, "less": np.less, "less_equal": np.less_equal,
    "greater": np.greater, "greater_equal": np.greater_equal,
}


def alu_stage(op, v, operand, reverse):
    """One tensor-scalar stage: op(v, operand), or op(operand, v) when reversed; bypass passes v."""
    if op == "bypass":
        return v
    with np.errstate(all="ignore"):
        if op in UNARY:
            return UNARY[op](v).astype(F32)
        return (ALU[op](operand, v) if reverse else ALU[op](v, operand)).astype(F32)


# ---- reductions and the accumulators (S3) ----

BIT_REDUCE_START = {"bitwise_and": M32, "bitwise_or": 0, "bitwise_xor": 0}

IDENTITY = {"maximum": -np.inf, "minimum": np.inf, "add": 0.0, "abs_max": 0.0, "abs_min": np.inf}

COMBINE = {
    "add": lambda a, b: (F32(a) + F32(b)).astype(F32),
    "maximum": np.maximum,
    "minimum": np.minimum,
    "abs_max": lambda a, b: np.maximum(np.abs(a), np.abs(b)),
    "abs_min": lambda a, b: np.minimum(np.abs(a), np.abs(b)),
}


def reduce_free(op, values):
    """Reduce each partition's elements left to right in float32 (S3) -> [P]."""
    if op in ("subtract", "multiply", "logical_and", "logical_or", "logical_xor"):
        # subtract: numpy.subtract.reduce (data[0] - data[1] - ...); multiply
        # from 1; the logical ones from NKI's identities (and: 1, or/xor: 0).
        start = {"subtract": None, "multiply": 1.0, "logical_and": 1.0}.get(op, 0.0)
        acc = values[:, 0].astype(F32) if start is None else np.full(values.shape[0], start, dtype=F32)
        with np.errstate(all="ignore"):
            for i in range(0 if start is not None else 1, values.shape[1]):
                acc = ALU[op](acc, values[:, i]).astype(F32)
        return acc
    if op == "add":
        acc = np.zeros(values.shape[0], dtype=F32)
        with np.errstate(all="ignore"):
            for i in range(values.shape[1]):
                acc = (acc + values[:, i]).astype(F32)
        return acc
    if op == "maximum":
        return np.max(values, axis=1)
    if op == "minimum":
        return np.min(values, axis=1)
    if op == "abs_max":
        return np.max(np.abs(values), axis=1)
    return np.min(np.abs(values), axis=1)  # abs_min


def track_lanes(m, engine, lanes, cmd, reads_result):
    """--strict (S1.3, S3): a reduce or a reduce_res read of a lane never reset faults; an idle
    select_reduce/range_select leaves its Vector lanes undefined until the next reset."""
    state = m.lane_state[engine]
    if cmd == "reduce" and np.any(state[lanes] != LANE_OK):
        m.note_hazard(f"{cmd} onto {engine} accumulator lanes not reset (S3)")
    if cmd in ("reset", "reset_reduce"):
        state[lanes] = LANE_OK
    if reads_result and np.any(state[lanes] != LANE_OK):
        m.note_hazard(f"reduce_res reads {engine} accumulator lanes not reset (S3)")
    if engine == "vector" and cmd == "idle":
        if reads_result and np.any(state[lanes] == LANE_OK):
            m.note_ambiguous("reduce_res of an idle Vector instruction: before or after the lanes turn undefined?")
        state[lanes] = LANE_IDLE


def accumulate(m, engine, lanes_view, cmd, op, values, reduce_res):
    """S3: update the engine's accumulator lanes, then copy them to reduce_res."""
    acc = m.acc[engine]
    lanes = m.lanes(lanes_view)
    track_lanes(m, engine, lanes, cmd, reduce_res is not None)
    if cmd in ("reset", "reset_reduce"):
        acc[lanes] = IDENTITY[op]
    if cmd in ("reset_reduce", "reduce"):
        with np.errstate(all="ignore"):
            acc[lanes] = COMBINE[op](acc[lanes], reduce_free(op, values)).astype(F32)
    if reduce_res is not None:
        m.write(reduce_res, acc[lanes].reshape(-1, 1))


# ---- the instructions ----

def dma_copy(m, o):
    """Bits copied exactly (S2.1); views flatten their free dimensions. A
    dynamic view (vector_offset / scalar_offset) moves by its runtime index
    times the elements of one step of indirect_dim; an index taking it outside
    the tensor faults (oob_mode error) or skips that partition (vector) or the
    whole copy (scalar), docs/SEMANTICS.md dma_copy."""
    dst, src = o["dst"], o["src"]
    if dst.indirect is None and src.indirect is None:
        m.write_raw(dst, m.read_raw(src))
        return
    parts = m.partitions(dst)
    d_idx, d_ok, d_index = _dma_flat(m, dst, parts)
    s_idx, s_ok, s_index = _dma_flat(m, src, parts)
    skip = o.get("oob_mode", "error") == "skip"
    for ok, index, view in ((d_ok, d_index, dst), (s_ok, s_index, src)):
        if not ok.all() and not skip:
            p = int(np.argmin(ok))
            raise IndexError(f"dma_copy: index {index[p if view.indirect == 'vector' else 0]} takes the view outside "
                             f"{view.name}")
    if src.indirect is None:
        m.check_written(src)
    src_raw = m._tensor_raw(m.decl(src)).reshape(-1)
    if dst.indirect is None:  # a gather into a tile: only the copied partitions count as written
        raw = m.read_raw(dst, check=False)
        written = np.zeros(raw.shape, dtype=bool)
        for p in range(parts):
            if d_ok[p] and s_ok[p]:
                raw[p] = src_raw[s_idx[p]]
                written[p] = True
        m.write_raw(dst, raw, written)
        return
    whole = m._tensor_raw(m.decl(dst)).copy().reshape(-1)  # a scatter into HBM
    for p in range(parts):  # partition order: a repeated row keeps the last
        if d_ok[p] and s_ok[p]:
            whole[d_idx[p]] = src_raw[s_idx[p]]
    m._store_tensor_raw(m.decl(dst), whole.reshape(m.decl(dst).shape))


def memset(m, o):
    dst, value = o["dst"], o["value"]
    shape = (m.partitions(dst), -1)
    n = m.read_raw(dst, check=False).size
    if ref_dtypes.is_float(m.dtype(dst)):
        m.write(dst, np.full(n, F32(value), dtype=F32).reshape(shape))
    else:  # exact int32 for integer tiles (LANGUAGE.md 2.3)
        m.write_raw(dst, ref_dtypes.encode_int(m.dtype(dst), np.full(n, int(value))).reshape(shape))


def iota(m, o):
    """dst[p, i] = base + p*partition_step + i*free_step, p and i relative to the tile
    (base 0, partition_step 0, free_step 1 when absent); NKI 0.6's form when `pattern` is given."""
    if "pattern" in o:
        return iota_pattern(m, o)
    o = {"base": 0, "partition_step": 0, "free_step": 1, **o}
    dst = o["dst"]
    p_count, f_count = m.read_raw(dst, check=False).shape
    p = np.arange(p_count).reshape(-1, 1)
    i = np.arange(f_count).reshape(1, -1)
    if ref_dtypes.is_float(m.dtype(dst)):
        base, ps, fs = (float(F32(o[k])) for k in ("base", "partition_step", "free_step"))
        m.write(dst, (base + p * ps + i * fs).astype(F32))
    else:
        base, ps, fs = (int(o[k]) for k in ("base", "partition_step", "free_step"))
        m.write_raw(dst, ref_dtypes.encode_int(m.dtype(dst), base + p * ps + i * fs))


def iota_pattern(m, o):
    """NKI 0.6 nki.isa.iota: for channel_id (the tile's partition) and every index of the
    pattern [[step_w, num_w], ...] (last innermost, read row-major over dst's free elements):
    value = offset + channel_id*channel_multiplier + sum(i_k*step_k) in 32-bit integer
    arithmetic (S7; wrapping), then cast to dst's dtype (integers saturate, floats via float32)."""
    dst = o["dst"]
    p_count, f_count = m.read_raw(dst, check=False).shape
    steps = np.array([s for s, _ in o["pattern"]], dtype=np.int64)
    nums = [n for _, n in o["pattern"]]
    assert int(np.prod(nums)) == f_count, "pattern does not cover dst"
    index = np.indices(nums).reshape(len(nums), -1)  # [k, flat free index]
    free = (steps[:, None] * index).sum(axis=0)
    channel = np.arange(p_count, dtype=np.int64)[:, None] * int(o.get("channel_multiplier", 0))
    value = int(o.get("offset", 0)) + channel + free[None, :]
    value = (value + 2 ** 31) % 2 ** 32 - 2 ** 31  # int32 wrap-around
    m.write_raw(dst, ref_dtypes.encode_int(m.dtype(dst), value))


def nonzero_with_count(m, o):
    """S4.1: only partitions 16k are read and written; the rest of dst is unchanged."""
    src, dst = o["src"], o["dst"]
    values = ref_dtypes.decode_exact(m.dtype(src), m.read_raw(src, check=False))
    out = m.read_raw(dst, check=False).astype(np.int64)
    t = values.shape[1]
    core_rows = [row for row, phys in enumerate(m.lanes(src)) if phys % 16 == 0]
    m.check_written(src, core_rows)
    for row in core_rows:
        nonzero_indices = [i + o["index_offset"] for i in range(t) if values[row, i] != 0]  # NaN != 0 holds
        out[row, :] = nonzero_indices + [o["padding_val"]] * (t - len(nonzero_indices)) + [len(nonzero_indices)]
    written = np.zeros(out.shape, dtype=bool)
    written[core_rows] = True
    m.write_raw(dst, ref_dtypes.encode_int("i32", out), written)


def tensor_copy_predicated(m, o):
    """S4.2: dst = src where predicate (== 0 with reverse_pred); bits copied."""
    dst, src, pred = o["dst"], o["src"], o["predicate"]
    predicate = m.read_raw(pred) != 0
    if o["reverse_pred"]:
        predicate = ~predicate
    out = m.read_raw(dst, check=False)
    if hasattr(src, "dims"):
        source = m.read_raw(src, check=False)
        unwritten = m.unwritten(src)
        if np.any(unwritten & predicate):
            m.note_hazard("copies src bytes never written (S1.1)")
        elif np.any(unwritten):
            m.note_ambiguous("src bytes never written under a false predicate: read or not?")
    elif ref_dtypes.is_float(m.dtype(dst)):
        source = ref_dtypes.encode(m.dtype(dst), np.full(out.shape, F32(src)))
    else:
        source = ref_dtypes.encode_int(m.dtype(dst), np.full(out.shape, int(src)))
    m.write_raw(dst, np.where(predicate, source, out), written=predicate)


def select_reduce(m, o):
    """S4.3: result = np.where(predicate, on_true, on_false); max-reduce into the Vector acc."""
    on_true = m.read(o["on_true"])
    predicate = m.read_raw(o["predicate"]) != 0
    if o["reverse_pred"]:
        predicate = ~predicate  # logical not of the predicate (NKI's docstring: "reverses the meaning")
    on_false = m.column(o["on_false"], on_true.shape[0])
    result = np.where(predicate, on_true, on_false).astype(F32)
    m.write(o["dst"], result)
    accumulate(m, "vector", o["on_true"], o["reduce_cmd"], o["reduce_op"], result, o.get("reduce_res"))


def range_select(m, o):
    """The NumPy form of S4.4 (NKI's range_select docstring), literally."""
    on_true_tile = m.read(o["on_true_tile"])
    range_start = o["range_start"]
    indices = np.zeros(on_true_tile.shape)
    indices[:] = range_start + np.arange(on_true_tile[0].size)
    indices = indices.astype(F32)  # the comparison is done in FP32 (S4.4)
    bound0 = m.read(o["bound0"]).reshape(-1, 1)
    bound1 = m.read(o["bound1"]).reshape(-1, 1)
    mask = COMPARE[o["comp_op0"]](indices, bound0) & COMPARE[o["comp_op1"]](indices, bound1)
    select_out_tile = np.where(mask, on_true_tile, F32(o["on_false_value"])).astype(F32)
    m.write(o["dst"], select_out_tile)
    accumulate(m, "vector", o["on_true_tile"], o["reduce_cmd"], o["reduce_op"], select_out_tile,
               o.get("reduce_res"))


def activation(m, o):
    """S4.6: dst = op(data * scale + bias) in float32; add-reduction into the Scalar acc."""
    data = m.read(o["data"])
    p = data.shape[0]
    scale = m.column(o["scale"], p)
    bias = m.column(o.get("bias", 0.0), p)
    with np.errstate(all="ignore"):
        pre = ((data * scale).astype(F32) + bias).astype(F32)
    check_valid_range(m, o["op"], pre)
    result = activate(o["op"], pre, 0.0)
    m.write(o["dst"], result)
    accumulate(m, "scalar", o["data"], o["reduce_cmd"], o.get("reduce_op", "add"), result, o.get("reduce_res"))


def activate2(m, o):
    """S4.5: (data op0 imm0) op1 imm1, then op(v, relu_param); reduction of the f32 results."""
    data = m.read(o["data"])
    p = data.shape[0]
    val = alu_stage(o["op0"], data, m.column(o["imm0"], p, o["op0"] != "bypass"), o["reverse0"])
    val = alu_stage(o["op1"], val, m.column(o["imm1"], p, o["op1"] != "bypass"), o["reverse1"])
    check_valid_range(m, o["op"], val)
    result = activate(o["op"], val, m.column(o["relu_param"], p, o["op"] == "prelu"))
    m.write(o["dst"], result)
    accumulate(m, "scalar", o["data"], o["reduce_cmd"], o.get("reduce_op", "add"), result, o.get("reduce_res"))


def is_bitvec(*ops):
    return any(op in BITVEC for op in ops if op is not None)


def tensor_scalar_bits(m, o):
    """Bitvec operators: the stages act on bit patterns (S7)."""
    data = bits_of(m.read_raw(o["data"]))
    p = data.shape[0]
    val = bit_stage(o["op0"], data, column_bits(m, o["operand0"], p, o["op0"] not in ("bypass", "invert")), o["reverse0"])
    if o["op1"] != "bypass":
        val = bit_stage(o["op1"], val, column_bits(m, o["operand1"], p, o["op1"] != "invert"), o["reverse1"])
    write_bits(m, o["dst"], val)


def tensor_scalar(m, o):
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


def tensor_tensor(m, o):
    if is_bitvec(o["op"]):
        return write_bits(m, o["dst"], BITVEC[o["op"]](bits_of(m.read_raw(o["data1"])), bits_of(m.read_raw(o["data2"]))))
    with np.errstate(all="ignore"):
        m.write(o["dst"], ALU[o["op"]](m.read(o["data1"]), m.read(o["data2"])).astype(F32))


def tensor_reduce(m, o):
    if "axis" in o:
        return tensor_reduce_axes(m, o)
    if o["op"] in BIT_REDUCE_START:
        bits = bits_of(m.read_raw(o["data"]))
        acc = np.full(bits.shape[0], BIT_REDUCE_START[o["op"]], dtype=np.uint64)
        for i in range(bits.shape[1]):
            acc = BITVEC[o["op"]](acc, bits[:, i])
        return write_bits(m, o["dst"], acc.reshape(-1, 1))
    r = reduce_free(o["op"], m.read(o["data"]))
    if o["negate"]:
        r = -r
    m.write(o["dst"], r.reshape(-1, 1))


def tensor_reduce_axes(m, o):
    """NKI 0.6 nki.isa.tensor_reduce with `axis`: reduce the listed free axes of data (the last
    ones; NumPy's negative axes) in float32, negate if asked; keepdims only shapes the result
    (dst is given). Each result folds its elements left to right (S3), in row-major order."""
    data = o["data"]
    shape = data.counts
    axes = sorted(a % len(shape) for a in o["axis"])
    assert axes and axes[0] > 0 and axes == list(range(axes[0], len(shape))), axes
    kept = shape[: axes[0]]
    if o["op"] in BIT_REDUCE_START:  # bitvec reductions fold bit patterns
        bits = bits_of(m.read_raw(data)).reshape(kept[0], -1, int(np.prod(shape[axes[0]:])))
        acc = np.full(bits.shape[:2], BIT_REDUCE_START[o["op"]], dtype=np.uint64)
        for i in range(bits.shape[2]):
            acc = BITVEC[o["op"]](acc, bits[:, :, i])
        return write_bits(m, o["dst"], acc.reshape(kept[0], -1))
    values = m.read(data).reshape(shape)
    folded = values.reshape(kept[0], -1, int(np.prod(shape[axes[0]:])))  # [P, kept free, reduced]
    r = np.stack([reduce_free(o["op"], folded[:, j, :]) for j in range(folded.shape[1])], axis=1)
    if o["negate"]:
        r = -r
    m.write(o["dst"], r.reshape(kept[0], -1))


# ---- issue 13, Tensor Engine batch (SEMANTICS.md S8) ----

def tensor_copy(m, o):
    """S8.1: bits copied when dst and src share a dtype, else through float32 (S2)."""
    dst, src = o["dst"], o["src"]
    if m.dtype(dst) == m.dtype(src):
        m.write_raw(dst, m.read_raw(src))
    else:
        m.write(dst, m.read(src))


_ARCH_VERSION = {a["name"]: a["version"] for a in nasm_reader.SPEC["archs"]}


def _matmul_wrote(m, view):
    """(any, all): whether an earlier nc_matmul wrote any / every byte of the PSUM view; marks its
    bytes (S8.3 accumulate=None)."""
    decl = m.decl(view)
    if not hasattr(m, "matmul_written"):
        m.matmul_written = np.zeros_like(m.written["psum"])
    off, size = m.offsets[decl.name], ref_dtypes.itemsize(decl.dtype)
    nbytes = m.bytes_per_partition(decl)
    block = m.matmul_written[: decl.shape[0], off: off + nbytes]
    flags = block.reshape(list(decl.shape) + [size]).copy().reshape(-1, size)
    index = view.flat_index()
    before = bool(flags[index].any()), bool(flags[index].all())
    flags[index] = True
    m.matmul_written[: decl.shape[0], off: off + nbytes] = flags.reshape(decl.shape[0], -1)
    return before


def nc_matmul(m, o):
    """S8.3: dst = stationary.T @ moving; float32 products, summed from 0 with k ascending
    (double_row: rows (k, 0), (k, 1), ...); accumulate adds onto dst; is_transpose starts at -0.0
    and leaves out products of a zero moving value."""
    dst = o["dst"]
    st, mv = m.read(o["stationary"]), m.read(o["moving"])
    if o["perf_mode"] == "double_row":  # [K, 2, F] row-major is [2K, F]
        st = st.reshape(2 * st.shape[0], -1)
        mv = mv.reshape(2 * mv.shape[0], -1)
    transpose = o["is_transpose"]
    acc = np.full((st.shape[1], mv.shape[1]), -0.0 if transpose else 0.0, dtype=F32)
    with np.errstate(all="ignore"):
        for k in range(st.shape[0]):
            prod = np.multiply.outer(st[k], mv[k]).astype(F32)
            if transpose:
                prod = np.where(mv[k] != 0, prod, F32(-0.0))  # adding -0.0 changes nothing
            acc = (acc + prod).astype(F32)
        earlier_any, earlier_all = _matmul_wrote(m, dst)
        accumulate = o.get("accumulate")
        if accumulate is None:
            accumulate = earlier_any
        if accumulate:
            acc = (m.read(dst) + acc).astype(F32)
            if not earlier_all and _ARCH_VERSION[m.prog.arch] < 4:
                m.note_hazard("accumulates onto PSUM bytes no earlier nc_matmul wrote (S8.3, NeuronCore-v2/v3)")
    m.write(dst, acc)


def nc_transpose(m, o):
    """S8.4: dst[j, p] = data[p, j], free axes flattened, bits copied."""
    m.write_raw(o["dst"], m.read_raw(o["data"]).T)
# ---- issue 13, vecops batch (docs/SEMANTICS.md S4.20-S4.28, numbered as their opcodes) ----

def tensor_tensor_scan(m, o):
    """S4.20, NKI 0.6's docstring loop: result[:, i] = op1(op0(data0[:, i], result[:, i-1]), data1[:, i]),
    result[:, -1] = initial, over the flat free elements; reverse0/reverse1 swap a stage's inputs."""
    data0, data1 = m.read(o["data0"]), m.read(o["data1"])
    prev = m.column(o["initial"], data0.shape[0])[:, 0]
    result = np.zeros(data0.shape, dtype=F32)
    with np.errstate(all="ignore"):
        for i in range(data0.shape[1]):
            first = ALU[o["op0"]](prev, data0[:, i]) if o["reverse0"] else ALU[o["op0"]](data0[:, i], prev)
            first = np.asarray(first, dtype=F32)
            prev = np.asarray(ALU[o["op1"]](data1[:, i], first) if o["reverse1"] else ALU[o["op1"]](first, data1[:, i]),
                              dtype=F32)
            result[:, i] = prev
    m.write(o["dst"], result)


def affine_select(m, o):
    """S4.21, NKI 0.6's docstring loop: affine_value as iota's pattern form (int32, wrapping);
    dst = on_true_tile where cmp_op(affine_value, 0), else on_false_value (float32, cast to dst)."""
    dst, on_true = o["dst"], o["on_true_tile"]
    p_count, f_count = m.read_raw(dst, check=False).shape
    steps = np.array([s for s, _ in o["pattern"]], dtype=np.int64)
    nums = [n for _, n in o["pattern"]]
    assert int(np.prod(nums)) == f_count, "pattern does not cover dst"
    index = np.indices(nums).reshape(len(nums), -1)
    free = (steps[:, None] * index).sum(axis=0)
    channel = np.arange(p_count, dtype=np.int64)[:, None] * int(o["channel_multiplier"])
    value = int(o.get("offset", 0)) + channel + free[None, :]
    value = (value + 2 ** 31) % 2 ** 32 - 2 ** 31  # int32 wrap-around
    predicate = COMPARE[o["cmp_op"]](value, 0)
    on_false = np.full((p_count, f_count), F32(o["on_false_value"]), dtype=F32)
    if m.dtype(on_true) == m.dtype(dst):  # selected elements keep their bits
        raw = m.read_raw(on_true)
        false_bits = ref_dtypes.encode(m.dtype(dst), on_false).astype(raw.dtype)
        m.write_raw(dst, np.where(predicate, raw, false_bits))
    else:  # through float32
        m.write(dst, np.where(predicate, m.read(on_true), on_false).astype(F32))


LOAD_COMBINE = {**COMBINE, "multiply": lambda a, b: (F32(a) * F32(b)).astype(F32)}
LOAD_IDENTITY = {**IDENTITY, "multiply": 1.0}


def accumulate_load(m, engine, lanes_view, cmd, op, values, reduce_res, init=None, negate_res=False):
    """S3 with NKI's load_reduce (the lanes start from the [P, 1] column `init` instead of the
    identity) and reduce_res_negate (reduce_res = -acc; the lanes keep acc)."""
    acc = m.acc[engine]
    lanes = m.lanes(lanes_view)
    track_lanes(m, engine, lanes, "reset_reduce" if cmd == "load_reduce" else cmd, reduce_res is not None)
    with np.errstate(all="ignore"):
        if cmd == "load_reduce":
            acc[lanes] = LOAD_COMBINE[op](init.reshape(-1), reduce_free(op, values)).astype(F32)
        elif cmd in ("reset_reduce", "reduce"):
            start = np.full(len(lanes), LOAD_IDENTITY[op], dtype=F32) if cmd == "reset_reduce" else acc[lanes]
            acc[lanes] = LOAD_COMBINE[op](start, reduce_free(op, values)).astype(F32)
    if reduce_res is not None:
        m.write(reduce_res, (-acc[lanes] if negate_res else acc[lanes]).reshape(-1, 1))


def tensor_scalar_cumulative(m, o):
    """S4.22, NKI 0.6's docstring pseudocode: reg starts at op1's identity (reset_reduce), imm1
    (load_reduce) or the Vector accumulator lane (reduce); reg = op1(op0(src[i], imm0), reg),
    dst[i] = reg; the lane keeps the last reg."""
    src = m.read(o["src"])
    p = src.shape[0]
    imm0 = m.column(o["imm0"], p)
    lanes = m.lanes(o["src"])
    cmd = o["reduce_cmd"]
    acc = m.acc["vector"]
    track_lanes(m, "vector", lanes, "reset_reduce" if cmd == "load_reduce" else cmd, False)
    if cmd == "load_reduce":
        reg = m.column(o["imm1"], p)
    elif cmd == "reset_reduce":
        reg = np.full((p, 1), {"add": 0.0, "subtract": 0.0, "multiply": 1.0, "maximum": -np.inf,
                               "minimum": np.inf}[o["op1"]], dtype=F32)
    else:
        reg = acc[lanes].reshape(-1, 1).astype(F32)
    out = np.zeros(src.shape, dtype=F32)
    with np.errstate(all="ignore"):
        for i in range(src.shape[1]):
            reg = np.asarray(ALU[o["op1"]](alu_stage(o["op0"], src[:, i:i + 1], imm0, False), reg), dtype=F32)
            out[:, i:i + 1] = reg
    acc[lanes] = reg.reshape(-1)
    m.write(o["dst"], out)


def scalar_tensor_tensor(m, o):
    """S4.23: (data op0 operand0) op1 operand1, each stage reversible, in float32."""
    data, operand1 = m.read(o["data"]), m.read(o["operand1"])
    v = alu_stage(o["op0"], data, m.column(o["operand0"], data.shape[0]), o["reverse0"])
    with np.errstate(all="ignore"):
        result = ALU[o["op1"]](operand1, v) if o["reverse1"] else ALU[o["op1"]](v, operand1)
    m.write(o["dst"], np.asarray(result, dtype=F32))


def tensor_scalar_reduce(m, o):
    """S4.24: dst = data op0 operand0; reduce_op of the float32 results into the Vector acc."""
    data = m.read(o["data"])
    p = data.shape[0]
    result = alu_stage(o["op0"], data, m.column(o["operand0"], p), o["reverse0"])
    m.write(o["dst"], result)
    init = m.column(o["reduce_init"], p) if o["reduce_cmd"] == "load_reduce" else None
    accumulate_load(m, "vector", o["data"], o["reduce_cmd"], o["reduce_op"], result, o.get("reduce_res"), init,
                    o["reduce_res_negate"])


def activation_reduce(m, o):
    """S4.25: activation (S4.6) with reduce_cmd=reset_reduce into the Scalar acc, then reduce_res."""
    data = m.read(o["data"])
    p = data.shape[0]
    with np.errstate(all="ignore"):
        pre = ((data * m.column(o["scale"], p)).astype(F32) + m.column(o.get("bias", 0.0), p)).astype(F32)
    check_valid_range(m, o["op"], pre)
    result = activate(o["op"], pre, 0.0)
    m.write(o["dst"], result)
    accumulate(m, "scalar", o["data"], "reset_reduce", o["reduce_op"], result, o["reduce_res"])


def exponential(m, o):
    """S4.26, NKI 0.6's docstring: dst = exp(src - max_value) in float32; the sum into the Vector acc."""
    src = m.read(o["src"])
    p = src.shape[0]
    with np.errstate(all="ignore"):
        pre = (src - m.column(o["max_value"], p)).astype(F32)
    result = activate("exp", pre, 0.0)
    m.write(o["dst"], result)
    init = m.column(o["reduce_init"], p) if o["reduce_cmd"] == "load_reduce" else None
    accumulate_load(m, "vector", o["src"], o["reduce_cmd"], "add", result, o.get("reduce_res"), init)


def reciprocal(m, o):
    """S4.27: 1.0 / data in float32."""
    with np.errstate(all="ignore"):
        m.write(o["dst"], (F32(1) / m.read(o["data"])).astype(F32))


def tensor_partition_reduce(m, o):
    """S4.28: dst[0, i] = op of data[p, i] over p = 0..P-1 in order (float32; average = sum / P;
    bitwise ops on bit patterns)."""
    op = o["op"]
    if op in ("bitwise_or", "bitwise_and"):
        bits = bits_of(m.read_raw(o["data"]))
        acc = np.full(bits.shape[1], 0 if op == "bitwise_or" else M32, dtype=np.uint64)
        for p in range(bits.shape[0]):
            acc = acc | bits[p] if op == "bitwise_or" else acc & bits[p]
        return write_bits(m, o["dst"], acc.reshape(1, -1))
    data = m.read(o["data"])
    r = reduce_free("maximum" if op == "maximum" else "add", data.T)
    if op == "average":
        r = (r / F32(data.shape[0])).astype(F32)
    m.write(o["dst"], r.reshape(1, -1))


VECOPS = (tensor_tensor_scan, affine_select, tensor_scalar_cumulative, scalar_tensor_tensor, tensor_scalar_reduce,
          activation_reduce, exponential, reciprocal, tensor_partition_reduce)


SEMANTICS = {f.__name__: f for f in (dma_copy, memset, iota, nonzero_with_count, tensor_copy_predicated,
                                     select_reduce, range_select, activation, activate2, tensor_scalar,
                                     tensor_tensor, tensor_reduce, tensor_copy, nc_matmul, nc_transpose) + VECOPS}


# ---- issue 13, statistics and selection (SEMANTICS.md S4.30-S4.35) ----

def _fold_add(columns):
    """Left-to-right float32 sum of the columns of [P, k] (k >= 1), starting from column 0."""
    acc = columns[:, 0].astype(F32)
    for i in range(1, columns.shape[1]):
        acc = (acc + columns[:, i]).astype(F32)
    return acc


def _half_statistics(x):
    """(count, mean, variance * count) of [P, k] in float32, two passes (S4.30); k = 0 gives zeros."""
    p, k = x.shape
    if k == 0:
        return [np.zeros(p, dtype=F32)] * 3
    count = F32(k)
    with np.errstate(all="ignore"):
        mean = (_fold_add(x) / count).astype(F32)
        d = (x - mean[:, None]).astype(F32)
        m2 = _fold_add((d * d).astype(F32))
    return [np.full(p, count, dtype=F32), mean, m2]


def bn_stats(m, o):
    """S4.30: statistics of the even-indexed, then the odd-indexed free elements."""
    x = m.read(o["data"])
    m.write(o["dst"], np.stack(_half_statistics(x[:, 0::2]) + _half_statistics(x[:, 1::2]), axis=1))


def bn_aggr(m, o):
    """S4.31: Chan's pairwise combination of (count, mean, m2) triples, left to right in float32."""
    data = m.read(o["data"])
    out = np.zeros((data.shape[0], 2), dtype=F32)
    with np.errstate(all="ignore"):
        for p in range(data.shape[0]):
            n = mean = m2 = F32(0)
            for t in range(0, data.shape[1], 3):
                nb, mb, m2b = (F32(v) for v in data[p, t:t + 3])
                if nb == 0:
                    continue
                if n == 0:
                    n, mean, m2 = nb, mb, m2b
                    continue
                total = F32(n + nb)
                delta = F32(mb - mean)
                w = F32(nb / total)
                mean = F32(mean + F32(delta * w))
                m2 = F32(F32(m2 + m2b) + F32(F32(delta * delta) * F32(n * w)))
                n = total
            out[p] = (mean, F32(0) if n == 0 else F32(m2 / n))
    m.write(o["dst"], out)


def _ranked(row):
    """Indices of row in max8's order: NaN first, then descending; ties in order of occurrence."""
    return sorted(range(len(row)), key=lambda i: (0 if np.isnan(row[i]) else 1, -float(row[i])))


def max8(m, o):
    """S4.32: the 8 largest per partition, descending (NaN largest)."""
    x = m.read(o["src"])
    m.write(o["dst"], np.array([[row[i] for i in _ranked(row)[:8]] for row in x], dtype=F32))


def _same(a, b):
    return a == b or (np.isnan(a) and np.isnan(b))


def _match8(row, vals, order):
    """{j: index}: for j in `order`, the first index of row equal to vals[j] not yet taken."""
    taken, found = set(), {}
    for j in order:
        for i, v in enumerate(row):
            if i not in taken and _same(v, vals[j]):
                taken.add(i)
                found[j] = i
                break
    return found


def _write_indices(m, dst, found_rows):
    sentinel = 0xFFFF if m.dtype(dst) == "u16" else 0xFFFFFFFF  # all ones
    idx = np.array([[f.get(j, sentinel) for j in range(8)] for f in found_rows], dtype=np.int64)
    m.write_raw(dst, ref_dtypes.encode_int(m.dtype(dst), idx))


def nc_find_index8(m, o):
    """S4.33: vals in order 0..7, each to the first untaken equal element of data."""
    data, vals = m.read(o["data"]), m.read(o["vals"])
    _write_indices(m, o["dst"], [_match8(data[p], vals[p], range(8)) for p in range(data.shape[0])])


def nc_match_replace8(m, o):
    """S4.34: vals in order 7..0, each to the first untaken equal element, replaced by imm."""
    data, vals = m.read(o["data"]), m.read(o["vals"])
    found = [_match8(data[p], vals[p], range(7, -1, -1)) for p in range(data.shape[0])]
    out = data.copy()
    for p, f in enumerate(found):
        for i in f.values():
            out[p, i] = F32(o["imm"])
    m.write(o["dst"], out)
    if o.get("dst_idx") is not None:
        _write_indices(m, o["dst_idx"], found)


def sequence_bounds(m, o):
    """S4.35: NKI's unit-test golden formula (compute_sequence_bounds) on one partition."""
    ids_view, dst = o["segment_ids"], o["dst"]
    if m.dtype(ids_view) == "f32":
        seq = m.read(ids_view)[0]
    else:
        seq = ref_dtypes.decode_exact("i32", m.read_raw(ids_view))[0].astype(np.int64)
    n = len(seq)
    lo, hi = [0] * n, [0] * n
    lo[0] = 0 if seq[0] != 0 else n
    for i in range(1, n):
        lo[i] = n if seq[i] == 0 else lo[i - 1] if seq[i] == seq[i - 1] else i
    hi[-1] = n if seq[-1] != 0 else -1
    for i in range(n - 2, -1, -1):
        hi[i] = -1 if seq[i] == 0 else hi[i + 1] if seq[i] == seq[i + 1] else i + 1
    bounds = np.array([lo + hi])
    if m.dtype(dst) == "f32":
        m.write(dst, bounds.astype(F32))
    else:
        m.write_raw(dst, ref_dtypes.encode_int("i32", bounds))


def topk(m, o):
    """S4.36: per 16-partition group, the K largest of the n-element snake (element e at
    partition e % 16, column e // 16), ascending, on every partition of the group."""
    src = m.read(o["src"])
    n, k = o["n"], m.read_raw(o["val_dst"], check=False).shape[1]
    values = np.zeros((src.shape[0], k), dtype=F32)
    index = np.zeros((src.shape[0], k), dtype=np.int64)
    for g in range(src.shape[0] // 16):
        snake = src[16 * g:16 * (g + 1)].T.reshape(-1)[:n]
        ascending = _ranked(snake)[:k][::-1]
        values[16 * g:16 * (g + 1)] = snake[ascending]
        index[16 * g:16 * (g + 1)] = ascending
    m.write(o["val_dst"], values)
    m.write_raw(o["idx_dst"], ref_dtypes.encode_int("u32", index))


SEMANTICS.update({f.__name__: f for f in (bn_stats, bn_aggr, max8, nc_find_index8, nc_match_replace8, sequence_bounds,
                                          topk)})


# ---- issue 13: data movement and random numbers (docs/SEMANTICS.md S11) ----

TRANSPOSE_AXES = {2: (1, 0), 3: (2, 1, 0), 4: (3, 1, 2, 0)}  # NKI 0.6 dma_transpose, by src rank


def dma_transpose(m, o):
    """S11.1: dst = np.transpose(src, axes) with the axes of src's rank; bits copied exactly."""
    src = o["src"]
    shape = list(src.counts)
    axes = TRANSPOSE_AXES[len(shape)]
    assert tuple(o.get("axes", axes)) == axes, "axes do not match src's rank"
    raw = m.read_raw(src).reshape(shape)
    m.write_raw(o["dst"], np.transpose(raw, axes).reshape(shape[axes[0]], -1))


def nc_stream_shuffle(m, o):
    """S11.2: per quadrant of 32 partitions (relative to each tile), dst[32q + i] = src[32q + mask[i]];
    mask 255 leaves the dst partition unchanged. All of src is read before dst is written."""
    src = m.read_raw(o["src"])
    dst = o["dst"]
    out = m.read_raw(dst, check=False)
    written = np.zeros(out.shape, dtype=bool)
    for d in range(out.shape[0]):
        k = o["shuffle_mask"][d % 32]
        if k != 255:
            out[d] = src[d // 32 * 32 + k]
            written[d] = True
    m.write_raw(dst, out, written)


def local_gather(m, o):
    """S11.3, NKI's golden formula: per GpSimd core (16 partitions), indices_1d =
    index[core].flatten(order='F')[:num_valid_indices]; each partition takes
    num_elem_per_idx contiguous elements of its own flattened row at every index.
    Elements past the end of the row read as zero bits (--strict faults)."""
    src = m.read_raw(o["src_buffer"])
    index = m.read_raw(o["index"]).astype(np.int64)
    n = o["num_elem_per_idx"]
    valid = o.get("num_valid_indices", index.size // (index.shape[0] // 16))
    out = np.zeros((src.shape[0], valid * n), dtype=src.dtype)
    padded = np.concatenate([src, np.zeros((src.shape[0], 32), dtype=src.dtype)], axis=1)
    for first in range(0, src.shape[0], 16):
        indices_1d = index[first:first + 16].flatten(order="F")[:valid]
        if np.any(indices_1d + n > src.shape[1]):
            m.note_hazard("local_gather index past the end of the partition (S11.3)")
        columns = (indices_1d[:, None] + np.arange(n)[None, :]).reshape(-1)
        columns = np.minimum(columns, src.shape[1])  # past the end: a zero column
        out[first:first + 16] = padded[first:first + 16][:, columns]
    m.write_raw(o["dst"], out)


def nc_n_gather(m, o):
    """S11.4: dst[p, j] = data[p, indices[p, j]] over flattened free elements; an
    index out of range gives zero bits (--strict faults)."""
    data = m.read_raw(o["data"])
    indices = m.read_raw(o["indices"]).astype(np.int64)
    if np.any(indices >= data.shape[1]):
        m.note_hazard("nc_n_gather index outside data's partition (S11.4)")
    padded = np.concatenate([data, np.zeros((data.shape[0], 1), dtype=data.dtype)], axis=1)
    m.write_raw(o["dst"], np.take_along_axis(padded, np.minimum(indices, data.shape[1]), axis=1))



def _draws(m, engine, view):
    """S11.5: 32-bit draws for every element of the view, row-major per partition."""
    return ref_random.draw(m.rng[engine], m.lanes(view), int(np.prod(view.counts[1:], dtype=np.int64)))


def rng(m, o):
    """S11.5: random bits truncated to dst's integer dtype (its low bits)."""
    dst = o["dst"]
    bits = _draws(m, o["engine"], dst).astype(np.uint64)
    m.write_raw(dst, ref_dtypes.encode_int(m.dtype(dst), _wrap(m.dtype(dst), bits)))


def _wrap(dtype, bits):
    """The low bits of each pattern as the integer value dtype holds (two's complement)."""
    size = 8 * ref_dtypes.itemsize(dtype)
    v = (bits & ((1 << size) - 1)).astype(np.int64)
    if dtype.startswith("i"):
        v = np.where(v >= 1 << (size - 1), v - (1 << size), v)
    return v


def rand2(m, o):
    """S11.5: min + (max - min) * u in float32, u = (b >> 8) * 2^-24."""
    dst = o["dst"]
    p = m.partitions(dst)
    lo = m.column(o["min"], p)
    hi = m.column(o["max"], p)
    u = ref_random.unit(_draws(m, "vector", dst))
    with np.errstate(all="ignore"):
        m.write(dst, (lo + (hi - lo).astype(F32) * u).astype(F32))


def dropout(m, o):
    """S11.5: zero (all bits) where u < prob, data's bits elsewhere."""
    data = m.read_raw(o["data"])
    prob = m.column(o["prob"], data.shape[0])
    drop = ref_random.unit(_draws(m, "vector", o["dst"])) < prob
    m.write_raw(o["dst"], np.where(drop, np.zeros_like(data), data))


def set_rng_seed(m, o):
    """S11.5: every Vector generator seeded from the 32-bit seed."""
    seed = int(m.read_raw(o["src_seeds"]).reshape(-1)[0]) & 0xFFFFFFFF
    m.rng["vector"] = ref_random.seeded(seed, "vector")


def rand_set_state(m, o):
    """S11.5: per lane, generator after generator, the words [x, y, z, w, v, d]."""
    src = o["src_seeds"]
    words = m.read_raw(src).astype(np.uint32)
    state = m.rng[o["engine"]]
    state[m.lanes(src)] = words.reshape(words.shape[0], state.shape[1], 6)


def rand_get_state(m, o):
    dst = o["dst"]
    state = m.rng[o["engine"]]
    m.write_raw(dst, state[m.lanes(dst)].reshape(len(m.lanes(dst)), -1).copy())


SEMANTICS.update({f.__name__: f for f in (dma_transpose, nc_stream_shuffle, local_gather, nc_n_gather,
                                          rng, rand2, dropout, set_rng_seed, rand_set_state, rand_get_state)})



# ---- dma_compute (docs/SEMANTICS.md S12.1) ----

def _dma_flat(m, view, parts):
    """Flat element indices [parts, n] of a view after its runtime index, and
    which partitions stay inside the tensor (dma_copy, dma_compute)."""
    decl = m.decl(view)
    idx = view.flat_index().reshape(parts, -1)
    if view.indirect is None:
        return idx, np.ones(parts, dtype=bool), None
    unit = int(np.prod(decl.shape[view.indirect_dim + 1:], dtype=np.int64))
    index = m.read_raw(view.index).astype(np.int64).reshape(-1)
    shift = (index if view.indirect == "vector" else np.full(parts, index[0])) * unit
    idx = idx + shift[:, None]
    total = int(np.prod(decl.shape, dtype=np.int64))
    ok = ((idx >= 0) & (idx < total)).all(axis=1)
    if view.indirect == "scalar":
        ok[:] = ok.all()
    return idx, ok, index


def dma_compute(m, o):
    """dst = srcs[0] + srcs[1] + ... in float32, left to right (every src
    decoded to float32, the sum encoded to dst's dtype); scales are all 1.
    Partitions in order, each read before it is written; a dynamic view's
    index is bounded as dma_copy's (oob_mode)."""
    dst, srcs = o["dst"], o["srcs"]
    parts = m.partitions(dst)
    sides = [_dma_flat(m, v, parts) for v in [dst] + srcs]
    skip = o.get("oob_mode", "error") == "skip"
    for (idx, ok, index), view in zip(sides, [dst] + srcs):
        if not ok.all() and not skip:
            p = int(np.argmin(ok))
            raise IndexError(f"dma_compute: index {index[p if view.indirect == 'vector' else 0]} takes the view outside {view.name}")
    for v in srcs:
        if v.indirect is None:
            m.check_written(v)
    ddecl = m.decl(dst)
    for p in range(parts):
        if not all(ok[p] for _, ok, _ in sides):
            continue
        total = None
        for (idx, _, _), v in zip(sides[1:], srcs):
            raw = m._tensor_raw(m.decl(v)).reshape(-1)[idx[p]]
            term = ref_dtypes.decode(m.dtype(v), raw).astype(F32)
            total = term if total is None else (total + term).astype(F32)
        enc = ref_dtypes.encode(ddecl.dtype, total)
        if ddecl.memory == "hbm":
            whole = m._tensor_raw(ddecl).copy().reshape(-1)
            whole[sides[0][0][p]] = enc.reshape(-1)
            m._store_tensor_raw(ddecl, whole.reshape(ddecl.shape))
        else:
            raw = m.read_raw(dst, check=False)
            raw[p] = enc.reshape(-1)
            written = np.zeros(raw.shape, dtype=bool)
            written[p] = True
            m.write_raw(dst, raw, written)


SEMANTICS.update({f.__name__: f for f in (dma_compute,)})

def run_program(text, inputs):
    """Runs .nasm text on {name: ndarray} inputs; returns ({output name: ndarray}, machine)."""
    prog = nasm_reader.read_program(text)
    m = Machine(prog)
    m.load_inputs(inputs)
    for ins in prog.instrs:
        m.line = ins.line
        try:
            SEMANTICS[ins.mnemonic](m, ins.ops)
        except Exception as e:
            raise RuntimeError(f"line {ins.line}: {ins.mnemonic}: {e}") from e
    return m.outputs(), m


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("program")
    ap.add_argument("--input", action="append", default=[], metavar="NAME=FILE.npy")
    ap.add_argument("--dump", required=True, metavar="DIR")
    args = ap.parse_args(argv)
    inputs = {}
    for item in args.input:
        name, _, path = item.partition("=")
        inputs[name] = np.load(path)
    with open(args.program) as f:
        outputs, _ = run_program(f.read(), inputs)
    os.makedirs(args.dump, exist_ok=True)
    for name, arr in outputs.items():
        np.save(os.path.join(args.dump, name + ".npy"), arr)
    return 0


if __name__ == "__main__":
    sys.exit(main())


# ---- issue 13, MX batch (docs/SEMANTICS.md S13) ----

def quantize_mx(m, o):
    """S13.1: groups of 8 partitions x 4 values share an e8m0 scale (ref_mx.quantize);
    the scale bytes land in partitions 32*(b//4) + b%4 of dst_scale (the whole tile counts as written)."""
    packed, scales = ref_mx.quantize(m.dtype(o["dst"]), m.read(o["src"]))
    m.write_raw(o["dst"], packed)
    scale = m.read_raw(o["dst_scale"], check=False)
    scale[ref_mx.scale_rows(packed.shape[0])] = scales
    m.write_raw(o["dst_scale"], scale)


def nc_matmul_mx(m, o):
    """S13.2: dequantized values (ref_mx.dequantize) as rows (k, q) of [4K, M] and [4K, N] matrices,
    then nc_matmul's sum: float32 products added from 0, rows ascending; accumulate as nc_matmul."""
    dst = o["dst"]
    st_name, mv_name = m.dtype(o["stationary"]), m.dtype(o["moving"])
    st_raw, mv_raw = m.read_raw(o["stationary"]), m.read_raw(o["moving"])
    st = ref_mx.dequantize(st_name, st_raw, m.read_raw(o["stationary_scale"], check=False))
    mv = ref_mx.dequantize(mv_name, mv_raw, m.read_raw(o["moving_scale"], check=False))
    k = st_raw.shape[0]
    st = st.reshape(k, -1, 4).transpose(0, 2, 1).reshape(4 * k, -1)  # row 4k + q: value q of partition k
    mv = mv.reshape(k, -1, 4).transpose(0, 2, 1).reshape(4 * k, -1)
    acc = np.zeros((st.shape[1], mv.shape[1]), dtype=F32)
    with np.errstate(all="ignore"):
        for r in range(st.shape[0]):
            acc = (acc + np.multiply.outer(st[r], mv[r]).astype(F32)).astype(F32)
        earlier = _matmul_wrote(m, dst)[0]  # any earlier write (S8.3 accumulate=None)
        accumulate = o.get("accumulate")
        if accumulate is None:
            accumulate = earlier
        if accumulate:
            acc = (m.read(dst) + acc).astype(F32)
    m.write(dst, acc)


SEMANTICS.update({f.__name__: f for f in (quantize_mx, nc_matmul_mx)})
