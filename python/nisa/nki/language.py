"""nki.language as nisa records it (NKI 0.6, `nki/api/nki/language/__init__.py`).

Tensors (`ndarray`, `zeros`, ...), buffers, dtypes, `ds`, the range helpers,
`tile_size`, and the convenience calls NKI 0.6 still has, each lowered to the
nki.isa instructions nisa models (docs/PORTING.md, "nki.language convenience
calls"): `load`/`store` -> dma_copy; element-wise arithmetic -> tensor_tensor
or tensor_scalar; math functions -> activation; reductions -> tensor_reduce.
Operators also serve as `op=` values of nki.isa calls (`op=nl.add`).
"""
import builtins
import contextlib
import inspect
import numbers

import numpy as np

from . import _dtypes
from ._record import checked, recording
from . import _record, _tensor
from ._record import _state
from ._tensor import DynSlice, NkiTensor

# --- dtypes and buffers (NKI 0.6: DType = str) ------------------------------
bool_ = "bool_"
int8, int16, int32 = "int8", "int16", "int32"
uint8, uint16, uint32 = "uint8", "uint16", "uint32"
float16, float32, bfloat16, tfloat32 = "float16", "float32", "bfloat16", "tfloat32"
float8_e4m3, float8_e4m3fn, float8_e5m2 = "float8_e4m3", "float8_e4m3fn", "float8_e5m2"
float8_e4m3fn_x4, float8_e5m2_x4, float4_e2m1fn_x4 = "float8_e4m3fn_x4", "float8_e5m2_x4", "float4_e2m1fn_x4"
float8_e8m0fnu = "float8_e8m0fnu"

sbuf, psum, hbm, private_hbm, shared_hbm = "sbuf", "psum", "hbm", "private_hbm", "shared_hbm"


class _Limits:
    def __init__(self, lo, hi):
        self.min, self.max = lo, hi


fp32 = _Limits(-3.4028234663852886e38, 3.4028234663852886e38)


class _TileSize:
    pmax = 128
    psum_fmax = 512
    psum_bank_fmax = 512
    psum_bank_fmax_bytes = 2048
    gemm_stationary_fmax = 128
    gemm_moving_fmax = 512
    bn_stats_fmax = 512
    psum_num_banks = 8


tile_size = _TileSize()


def is_hbm(buffer): return buffer in (hbm, private_hbm, shared_hbm)
def is_on_chip(buffer): return buffer in (sbuf, psum)
def is_psum(buffer): return buffer == psum
def is_sbuf(buffer): return buffer == sbuf


# --- ranges and indices ------------------------------------------------------
def ds(start, size):
    return DynSlice(start, size)


def affine_range(start, stop=None, step=1):
    return range(start, stop, step) if stop is not None else range(start)


sequential_range = static_range = affine_range


def program_id(axis=0): return 0
def num_programs(axes=0): return 1
def program_ndim(): return 0


@contextlib.contextmanager
def no_reorder():
    yield


def device_print(print_prefix, tensor):
    pass  # nothing to print at record time; run the recorded program and dump instead


# The instructions nki.language records: mnemonic and parameter names (_record.Form).
_ACTIVATION = _record.form('activation', ('dst', 'op', 'data'))
_DMA_COPY = _record.form('dma_copy', ('dst', 'src'))
_MEMSET = _record.form('memset', ('dst', 'value'))
_TENSOR_REDUCE = _record.form('tensor_reduce', ('dst', 'op', 'data', 'axis', 'negate', 'keepdims'))
_TENSOR_SCALAR = _record.form('tensor_scalar', ('dst', 'data', 'op0', 'operand0'))
_TENSOR_SCALAR_REVERSE = _record.form('tensor_scalar', ('dst', 'data', 'op0', 'operand0', 'reverse0'))
_TENSOR_TENSOR = _record.form('tensor_tensor', ('dst', 'data1', 'data2', 'op'))


# --- tensors -----------------------------------------------------------------
_REGIONS = (sbuf, psum, hbm, private_hbm, shared_hbm)
# dtype strings (names and aliases) -> NKI's spelling, without _dtypes.canonical's checks
_DTYPES = {name: _dtypes.canonical(name) for name in list(_dtypes.TABLE) + list(_dtypes._ALIASES)
           if _dtypes.canonical(name)}


def _dtype(dtype, what="dtype"):
    name = _dtypes.canonical(dtype)
    if name is None:
        raise recording().error(f"{what} {dtype!r} is not one nisa models (float32, bfloat16, float16, tfloat32, the "
                                "float8 types, int8/16/32, uint8/16/32, bool_)")
    return name


def _shape(shape):
    if type(shape) is tuple and builtins.all(type(d) is int for d in shape):
        return shape  # the common case, without the numbers.Integral ABC checks
    dims = (shape,) if isinstance(shape, numbers.Integral) else shape
    if not isinstance(dims, (tuple, list)) or not builtins.all(isinstance(d, numbers.Integral) for d in dims):
        raise recording().error(f"shape {shape!r}: expected a tuple of integers")
    return tuple(int(d) for d in dims)


def new_tensor(shape, dtype, buffer=sbuf, name="", hint=None):
    rec = _state.recording or recording()
    if buffer not in _REGIONS:
        raise rec.error(f"buffer {buffer!r}: expected nl.sbuf, nl.psum, nl.hbm, nl.private_hbm or nl.shared_hbm")
    role = "scratch" if buffer in _HBM else None
    dtype = (_DTYPES.get(dtype) if dtype.__class__ is str else None) or _dtype(dtype)
    if shape.__class__ is not tuple or not _int_dims(shape):
        shape = _shape(shape)
    storage = rec.new_storage(buffer, dtype, shape, hint or ("hbm" if role else buffer[:2] + "_"),
                              user_name=name or "", role=role)
    return NkiTensor(storage)


_HBM = (hbm, private_hbm, shared_hbm)


def _int_dims(shape):
    for d in shape:
        if d.__class__ is not int:
            return False
    return True


def ndarray(shape, dtype, buffer=sbuf, name="", address=None):
    if address is not None:
        raise recording().error("ndarray(address=...) is not modeled: nisa.nki places tiles itself")
    return _new_tensor(shape, dtype, buffer, name, "tile" if _is_on_chip(buffer) else None)


def full(shape, fill_value, dtype, buffer=sbuf, name=""):
    t = _new_tensor(shape, dtype, buffer, name, "full")
    _fill(t, fill_value)
    return t


def zeros(shape, dtype, buffer=sbuf, name=""):
    t = _new_tensor(shape, dtype, buffer, name, "zeros")
    if _is_on_chip(buffer):
        _fill(t, 0)
    return t  # HBM scratch and outputs start zeroed (LANGUAGE.md 2.1)


def ones(shape, dtype, buffer=sbuf, name=""):
    return _full(shape, 1, dtype, buffer, name)


def zeros_like(x, dtype=None, buffer=None, name=""):
    return _zeros(x.shape, dtype or x.dtype, buffer or x.buffer, name)


def empty_like(x, dtype=None, buffer=None, name=""):
    return _ndarray(x.shape, dtype or x.dtype, buffer or x.buffer, name)


def fill(target, value):
    rec = _state.recording or recording()
    if not target.storage.on_chip:
        raise rec.error("filling an HBM tensor with a value is not modeled: fill an SBUF tile and store it")
    rec.put(_MEMSET, (target, value))


def _result(shape, dtype, hint):
    rec = _state.recording or recording()
    dtype = (_DTYPES.get(dtype) if dtype.__class__ is str else None) or _dtype(dtype)
    if shape.__class__ is not tuple or not _int_dims(shape):
        shape = _shape(shape)
    storage = rec.new_storage(sbuf, dtype, shape, hint or "sb_")
    storage.fresh_result = len(rec.instructions)
    return NkiTensor(storage)


# --- moving data -------------------------------------------------------------
def load(src, dtype=None):
    rec = _state.recording or recording()
    if not isinstance(src, NkiTensor):
        raise rec.error("nl.load takes an HBM tensor")
    shape = src.shape if len(src.shape) > 1 else (1,) + src.shape
    tile = _result(shape, src.dtype, "load")
    rec.put(_DMA_COPY, (tile, src))
    if dtype is not None and _dtype(dtype) != src.dtype:
        return _copy(tile, dtype=dtype)
    return tile


def store(dst, value):
    rec = _state.recording or recording()
    if not isinstance(dst, NkiTensor):
        raise rec.error(f"nl.store(dst, value): dst must be a tensor, not a {type(dst).__name__} (a kernel argument "
                        "other than an array is a plain Python value: pass a NumPy array)")
    if isinstance(value, numbers.Number):
        shape = dst.shape if len(dst.shape) > 1 else (1,) + dst.shape
        tile = _new_tensor(shape, dst.dtype, sbuf, "", "value")
        _fill(tile, value)
        value = tile
    if not isinstance(value, NkiTensor):
        raise rec.error("nl.store(dst, value): value must be a tile or a number")
    if value.storage.buffer == "psum" or value.dtype != dst.dtype:
        value = _copy(value, dtype=dst.dtype)  # PSUM is never a DMA source; dma_copy keeps the dtype
    rec.put(_DMA_COPY, (dst, value))


def assign(target, value):
    """`target[...] = value`. A value just returned by one instruction is
    written there by that instruction directly (no copy), as NKI does."""
    rec = _state.recording or recording()
    s = value.storage
    last = len(rec.instructions) - 1
    if (s.fresh_result == last and not s.aliased and _tensor._RAW["is_whole"](value) and target.storage.on_chip and
            _partitions(value) == _partitions(target) and
            _per_partition(value) == _per_partition(target)):
        instruction = rec.instructions[last]
        writes = instruction.writes
        instruction.values = tuple(target if key in writes and getattr(value, "storage", None) is s else value
                                   for key, value in zip(instruction.form.keys, instruction.values))
        t = target.storage
        t.first_use = last if t.first_use is None else t.first_use
        t.last_use = last
        t.written = True
        s.first_use = s.last_use = None
        value._retarget(target)
        t.aliased = True
        return
    _copy_into(target, value)


def _copy_into(dst, src):
    rec = _state.recording or recording()
    if dst.storage.on_chip and src.storage.on_chip:
        rec.put(_ACTIVATION, (dst, "copy", src))
    else:
        rec.put(_DMA_COPY, (dst, src))


def copy(x, dtype=None):
    rec = _state.recording or recording()
    out = _result(x.shape, _dtype(dtype) if dtype is not None else x.dtype, "copy")
    if x.storage.on_chip:
        rec.put(_ACTIVATION, (out, "copy", x))
    else:
        rec.put(_DMA_COPY, (out, x))
    return out


def broadcast_to(x, shape, dtype=None):
    view = _tensor._RAW["broadcast_to"](x, shape) if isinstance(x, NkiTensor) else x.broadcast_to(shape)
    return _copy(view, dtype) if dtype is not None and _dtype(dtype) != x.dtype else view


def expand_dims(x, axis):
    return _tensor._RAW["expand_dim"](x, axis) if isinstance(x, NkiTensor) else x.expand_dim(axis)


# --- element-wise arithmetic ---------------------------------------------------
def _promote(a, b):
    if a == b:
        return a
    if _dtypes.is_float(a) or _dtypes.is_float(b):
        return float32
    return a if _dtypes.size(a) >= _dtypes.size(b) else b


def _partitions(t):
    shape = t._shape
    return shape[0] if shape else 1


def _per_partition(t):
    n = 1
    for d in t._shape[1:]:
        n *= d
    return n


def _is_column(t, other):
    return _per_partition(t) == 1 and _per_partition(other) > 1


def _broadcast_pair(rec, x, y):
    if x.ndim != y.ndim:
        raise rec.error(f"shapes {x.shape} and {y.shape}: element-wise operands need the same rank")
    if x.shape[0] != y.shape[0]:
        raise rec.error(f"shapes {x.shape} and {y.shape}: the partition dimensions differ")
    shape = []
    for a, b in zip(x.shape, y.shape):
        if a != b and 1 not in (a, b):
            raise rec.error(f"shapes {x.shape} and {y.shape} do not broadcast")
        shape.append(builtins.max(a, b))
    shape = tuple(shape)
    broadcast = _tensor._RAW["broadcast_to"]
    return broadcast(x, shape), broadcast(y, shape)


def _binary(op, x, y, dtype=None):
    rec = _state.recording or recording()
    xt, yt = isinstance(x, NkiTensor), isinstance(y, NkiTensor)
    if not (xt or yt):
        raise rec.error(f"nl.{op} needs at least one tile")
    if xt and not x.storage.on_chip or yt and not y.storage.on_chip:
        raise rec.error(f"nl.{op}: operands must be SBUF or PSUM tiles, not an HBM tensor (load it first)")
    if xt and yt:
        out_dtype = _dtype(dtype) if dtype is not None else _promote(x.storage.dtype, y.storage.dtype)
        same_partitions = _partitions(x) == _partitions(y)
        if same_partitions and _is_column(y, x):
            out = _result(x._shape, out_dtype, op)
            rec.put(_TENSOR_SCALAR, (out, x, op, y))
            return out
        if same_partitions and _is_column(x, y):
            out = _result(y._shape, out_dtype, op)
            rec.put(_TENSOR_SCALAR_REVERSE, (out, y, op, x, True))
            return out
        a, b = _broadcast_pair(rec, x, y)
        out = _result(a.shape, out_dtype, op)
        rec.put(_TENSOR_TENSOR, (out, a, b, op))
        return out
    tile, scalar = (x, y) if xt else (y, x)
    if not isinstance(scalar, numbers.Number):
        raise rec.error(f"nl.{op}: {type(scalar).__name__} is neither a tile nor a number")
    out = _result(tile._shape, _dtype(dtype) if dtype is not None else tile.storage.dtype, op)
    rec.put(_TENSOR_SCALAR_REVERSE, (out, tile, op, float(scalar), not xt))
    return out


def _make_binary(op):
    def fn(x, y, dtype=None):
        return _binary(op, x, y, dtype)
    fn.__name__ = fn.__qualname__ = op
    fn.__doc__ = f"nki.language.{op}: element-wise, lowered to tensor_tensor or tensor_scalar op={op}."
    return fn


add = _make_binary("add")
subtract = _make_binary("subtract")
multiply = _make_binary("multiply")
maximum = _make_binary("maximum")
minimum = _make_binary("minimum")
power = _make_binary("power")
abs_max = _make_binary("abs_max")
abs_min = _make_binary("abs_min")
equal = _make_binary("equal")
not_equal = _make_binary("not_equal")
less = _make_binary("less")
less_equal = _make_binary("less_equal")
greater = _make_binary("greater")
greater_equal = _make_binary("greater_equal")
bitwise_and = _make_binary("bitwise_and")
bitwise_or = _make_binary("bitwise_or")
bitwise_xor = _make_binary("bitwise_xor")
left_shift = _make_binary("left_shift")
right_shift = _make_binary("right_shift")
logical_and = _make_binary("logical_and")
logical_or = _make_binary("logical_or")
logical_xor = _make_binary("logical_xor")


def divide(x, y, dtype=None):
    """x / y. nisa's ALU has no divide: a number divisor becomes a multiply by
    its reciprocal, a tile divisor a reciprocal activation then a multiply."""
    rec = _state.recording or recording()
    if isinstance(y, numbers.Number):
        return _binary("multiply", x, 1.0 / float(y), dtype)
    if not isinstance(y, NkiTensor):
        raise rec.error("nl.divide: the divisor must be a tile or a number")
    inverse = _unary("reciprocal", y, float32)
    return _binary("multiply", x, inverse, dtype if dtype is not None else
                   (x.dtype if isinstance(x, NkiTensor) else y.dtype))


def _unary(function, x, dtype=None):
    rec = _state.recording or recording()
    if not isinstance(x, NkiTensor) or not x.storage.on_chip:
        raise rec.error(f"nl.{function} takes an SBUF or PSUM tile")
    out = _result(x._shape, _dtype(dtype) if dtype is not None else x.storage.dtype, function)
    rec.put(_ACTIVATION, (out, function, x))
    return out


def _make_unary(function):
    def fn(x, dtype=None):
        return _unary(function, x, dtype)
    fn.__name__ = fn.__qualname__ = function
    fn.__doc__ = f"nki.language.{function}: lowered to activation op={function}."
    return fn


_ACTIVATIONS = ["exp", "log", "tanh", "sigmoid", "relu", "gelu", "gelu_apprx_tanh", "gelu_apprx_sigmoid", "silu",
                "mish", "square", "sqrt", "rsqrt", "reciprocal", "sin", "arctan", "erf", "softplus", "abs", "sign",
                "gelu_dx", "gelu_apprx_sigmoid_dx", "silu_dx", "erf_dx", "identity"]
for _name in _ACTIVATIONS:
    globals()[_name] = _make_unary(_name)
del _name
prelu = "prelu"
bypass = "bypass"


def negative(x, dtype=None):
    return _binary("multiply", x, -1.0, dtype)


def invert(x, dtype=None):
    rec = _state.recording or recording()
    out = _result(x.shape, _dtype(dtype) if dtype is not None else x.dtype, "invert")
    rec.put(_TENSOR_SCALAR, (out, x, "invert", 0))
    return out


# --- reductions ----------------------------------------------------------------
def _reduce(op, x, axis, dtype, keepdims, hint):
    rec = _state.recording or recording()
    if not isinstance(x, NkiTensor) or not x.storage.on_chip:
        raise rec.error(f"nl.{hint} takes an SBUF or PSUM tile")
    if axis.__class__ is int:
        axes = [axis]
    elif (axis.__class__ is list or axis.__class__ is tuple) and axis and _int_dims(axis):
        axes = list(axis)
    else:
        axes = [axis] if isinstance(axis, numbers.Integral) else list(axis) if isinstance(axis, (tuple, list)) else None
        if not axes or not builtins.all(isinstance(a, numbers.Integral) for a in axes):
            raise rec.error(f"nl.{hint}(axis={axis!r}): expected an integer or a tuple of integers")
    shape = x._shape
    ndim = len(shape)
    axes = sorted(int(a) + ndim if a < 0 else int(a) for a in axes)
    if not axes or axes[0] < 1 or axes[-1] >= ndim or axes != list(range(axes[0], ndim)):
        raise rec.error(f"nl.{hint}(axis={axis}): the axes must be the last free dimensions of the tile "
                        f"(shape {shape}), as NKI requires")
    kept = [1 if d in axes else n for d, n in enumerate(shape)] if keepdims else \
        [n for d, n in enumerate(shape) if d not in axes]
    if len(kept) == 1:
        kept.append(1)  # a tile keeps a free dimension
    out = _result(tuple(kept), _dtype(dtype) if dtype is not None else x.storage.dtype, hint)
    rec.put(_TENSOR_REDUCE, (out, op, x, axes, False, bool(keepdims)))
    return out


def sum(x, axis, dtype=None, keepdims=False):
    return _reduce("add", x, axis, dtype, keepdims, "sum")


def max(x, axis, dtype=None, keepdims=False):
    return _reduce("maximum", x, axis, dtype, keepdims, "max")


def min(x, axis, dtype=None, keepdims=False):
    return _reduce("minimum", x, axis, dtype, keepdims, "min")


def prod(x, axis, dtype=None, keepdims=False):
    return _reduce("multiply", x, axis, dtype, keepdims, "prod")


def mean(x, axis, dtype=None, keepdims=False):
    """The float32 sum along `axis` times 1/n."""
    total = _reduce("add", x, axis, float32, keepdims, "mean")
    n = x.size // total.size
    return _binary("multiply", total, 1.0 / n, dtype if dtype is not None else x.dtype)


# --- NKI 0.6 names nisa does not model ---------------------------------------------
def _not_modeled(name, why):
    def fn(*args, **kwargs):
        raise recording().error(f"nl.{name} is not modeled by nisa: {why}")
    fn.__name__ = fn.__qualname__ = name
    return fn


for _name, _why in [("matmul", "it needs nc_matmul"), ("transpose", "it needs nc_transpose"),
                    ("load_transpose2d", "it needs dma_transpose"), ("gather_flattened", "it needs local_gather"),
                    ("where", "not lowered yet"), ("var", "not lowered yet"), ("all", "not lowered yet"),
                    ("softmax", "not lowered yet"), ("rms_norm", "not lowered yet"), ("dropout", "it needs dropout"),
                    ("rand", "it needs rng"), ("random_seed", "it needs set_rng_seed"), ("cos", "not lowered yet"),
                    ("tan", "not lowered yet"), ("ceil", "not lowered yet"), ("floor", "not lowered yet"),
                    ("trunc", "not lowered yet"), ("fmod", "not lowered yet"), ("mod", "not lowered yet"),
                    ("logical_not", "not lowered yet"), ("shared_constant", "not modeled"),
                    ("shared_identity_matrix", "not modeled"), ("dynamic_range", "dynamic loops are not modeled"),
                    ("fori_loop", "dynamic loops are not modeled"), ("while_loop", "dynamic loops are not modeled")]:
    globals()[_name] = _not_modeled(_name, _why)
del _name, _why

# Operators given as NumPy functions (np.add, np.max, ...) name the same op.
NUMPY_OPS = {np.add: "add", np.subtract: "subtract", np.multiply: "multiply", np.maximum: "maximum",
             np.minimum: "minimum", np.max: "maximum", np.min: "minimum", np.amax: "maximum", np.amin: "minimum",
             np.sum: "add", np.power: "power", np.equal: "equal", np.not_equal: "not_equal", np.less: "less",
             np.less_equal: "less_equal", np.greater: "greater", np.greater_equal: "greater_equal",
             np.bitwise_and: "bitwise_and", np.bitwise_or: "bitwise_or", np.bitwise_xor: "bitwise_xor",
             np.invert: "invert", np.left_shift: "left_shift", np.right_shift: "right_shift",
             np.logical_and: "logical_and", np.logical_or: "logical_or", np.logical_xor: "logical_xor",
             np.exp: "exp", np.log: "log", np.tanh: "tanh", np.sqrt: "sqrt", np.square: "square", np.abs: "abs",
             np.sign: "sign", np.sin: "sin", np.arctan: "arctan", np.reciprocal: "reciprocal",
             np.divide: "divide"}


# Every public call raises nisa.Error at the kernel's line on bad arguments,
# whatever Python would have raised (LANGUAGE.md 4).
# nisa.nki's own code calls them unwrapped (_RAW, _fill, ...): one wrapper per
# kernel call.
_RAW = {}
for _name, _fn in list(globals().items()):
    if inspect.isfunction(_fn) and _fn.__module__ == __name__ and not _name.startswith("_"):
        _RAW[_name] = _fn
        globals()[_name] = checked(_fn, f"nl.{_name}")
del _name, _fn
_new_tensor, _ndarray, _full, _zeros, _fill, _copy, _is_hbm, _is_on_chip, _assign = (
    _RAW[n] for n in ("new_tensor", "ndarray", "full", "zeros", "fill", "copy", "is_hbm", "is_on_chip", "assign"))
_tensor._LANGUAGE.update(_RAW)
