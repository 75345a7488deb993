"""What the reference model's instructions share (tests/reference/instructions/):
S5 activation functions in float64 rounded to float32, the ALU, bitvec and
comparison operators (S2.1, S7), free-axis reductions and the two accumulators
(S3), and helpers more than one instruction uses. Written from NKI's docstrings
and docs/SEMANTICS.md, never from nisa's C++ code."""
import math

import numpy as np

import ref_dtypes
import ref_random
from ref_machine import LANE_IDLE, LANE_OK

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


# ---- shared by several instructions ----

def is_bitvec(*ops):
    return any(op in BITVEC for op in ops if op is not None)


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


def dma_flat(m, view, parts):
    """Flat element indices [parts, n] of a view after its runtime index, and
    which partitions stay inside the tensor (dma_copy, dma_compute)."""
    decl = m.decl(view)
    idx = view.flat_index().reshape(parts, -1)
    if view.indirect is None:
        return idx, np.ones(parts, dtype=bool), None
    # LANGUAGE.md 2.3: index_stride when given, else the declared tensor's
    # stride of indirect_dim (for vector_offset, indirect_dim 0: one row)
    unit = view.index_stride or int(np.prod(decl.shape[view.indirect_dim + 1:], dtype=np.int64))
    if view.index_register is not None:  # S17.3: scalar_offset=REG, the register's int32 value
        index = np.array([m.read_register(view.index_register)], dtype=np.int64)
    else:
        index = m.read_raw(view.index).astype(np.int64).reshape(-1)
    shift = (index if view.indirect == "vector" else np.full(parts, index[0])) * unit
    idx = idx + shift[:, None]
    total = int(np.prod(decl.shape, dtype=np.int64))
    ok = ((idx >= 0) & (idx < total)).all(axis=1)
    if view.indirect == "scalar":
        ok[:] = ok.all()
    return idx, ok, index


def matmul_wrote(m, view):
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


def ranked(row):
    """Indices of row in max8's order: NaN first, then descending; ties in order of occurrence."""
    return sorted(range(len(row)), key=lambda i: (0 if np.isnan(row[i]) else 1, -float(row[i])))


def _same(a, b):
    return a == b or (np.isnan(a) and np.isnan(b))


def match8(row, vals, order):
    """{j: index}: for j in `order`, the first index of row equal to vals[j] not yet taken."""
    taken, found = set(), {}
    for j in order:
        for i, v in enumerate(row):
            if i not in taken and _same(v, vals[j]):
                taken.add(i)
                found[j] = i
                break
    return found


def write_indices(m, dst, found_rows):
    sentinel = 0xFFFF if m.dtype(dst) == "u16" else 0xFFFFFFFF  # all ones
    idx = np.array([[f.get(j, sentinel) for j in range(8)] for f in found_rows], dtype=np.int64)
    m.write_raw(dst, ref_dtypes.encode_int(m.dtype(dst), idx))


def draws(m, engine, view):
    """S11.5: 32-bit draws for every element of the view, row-major per partition."""
    return ref_random.draw(m.rng[engine], m.lanes(view), int(np.prod(view.counts[1:], dtype=np.int64)))


# ---- the lockstep's ulp budgets (tests/reference/lockstep.py, docs/SEMANTICS.md S5) ----

# S5: the activation functions that are one exact float32 operation (or none):
# the model's float64 evaluation rounded once is that operation's result.
EXACT_ACTIVATIONS = {"copy", "identity", "square", "relu", "prelu", "abs", "sign", "reciprocal", "sqrt"}
ACTIVATION_ULP = 8  # transcendental S5 functions: rtol 1e-6 (8.4 ulp), what tests/interp/activation_accuracy_test holds nisa to


def activation_budget(ins):
    """An instruction applying S5 function `op`: ACTIVATION_ULP unless the function is exact."""
    return 0 if ins.ops.get("op") in EXACT_ACTIVATIONS else ACTIVATION_ULP


def tensor_indirect_offsets(m, view, group=16):
    """Column offsets of an .indirect() view (docs/SEMANTICS.md S1.7): column
    i reads index[group * (j // k) + i % group, j % k], j = i // group, of the
    [P, k] index view."""
    index = m.read_raw(view.index).astype(np.int64)
    k = index.shape[1]
    n = view.pattern[1][1]
    return np.array([index[group * ((i // group) // k) + i % group, (i // group) % k] for i in range(n)], dtype=np.int64)


class _FixedView:
    """A view whose flat indices are given (an .indirect() view resolved)."""

    def __init__(self, view, flat):
        self.__dict__.update(view.__dict__)
        self._flat = flat

    counts = property(lambda self: [n for _, n in self.pattern])
    part_count = property(lambda self: self.pattern[0][1])

    def flat_index(self):
        return self._flat


def resolve_tensor_indirect(m, view, instruction, group=16):
    """The elements an .indirect() view names this time (S1.7): flat[K + p*E +
    index_i * s]; an offset outside the partition's row faults (IndexError)."""
    if getattr(view, "indirect", None) != "tensor":
        return view
    decl = m.prog.decls[view.name]  # m: the model's machine or bench's adapter of it
    row = int(np.prod(decl.shape[1:], dtype=np.int64))
    (step_p, parts), (step, _) = view.pattern
    offsets = tensor_indirect_offsets(m, view, group)
    within = view.offset % row + offsets * step
    bad = np.nonzero((within < 0) | (within >= row))[0]
    if len(bad):
        raise IndexError(f"{instruction}: index {offsets[bad[0]]} (column {bad[0]}) reaches outside a partition of {view.name}")
    flat = view.offset + np.arange(parts, dtype=np.int64)[:, None] * step_p + (offsets * step)[None, :]
    return _FixedView(view, flat)


def tensor_indirect_start(view):
    """The first element of each partition of an .indirect() view, [P, 1]:
    what --strict checks of a gathered input (S1.7)."""
    (step_p, parts), _ = view.pattern
    fixed = _FixedView(view, view.offset + np.arange(parts, dtype=np.int64)[:, None] * step_p)
    fixed.pattern = [(step_p, parts), (1, 1)]
    return fixed


def resolve_indirect_operands(m, o, instruction, names):
    """The operands `o` with each .indirect() view among `names` resolved for
    this step (S1.7), for instructions that read their inputs and then write
    dst (tensor_tensor, tensor_scalar): --strict checks the first element of
    each partition of a gathered input, as tensor_copy's."""
    resolved = dict(o)
    for name in names:
        view = o.get(name)
        if getattr(view, "indirect", None) != "tensor":
            continue
        fixed = resolve_tensor_indirect(m, view, instruction)
        if name != "dst":
            m.check_written(tensor_indirect_start(view))
            fixed.strict_start_only = True
        resolved[name] = fixed
    return resolved
