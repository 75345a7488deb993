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

from . import _record, _tensor
from ._record import _state, checked, recording
# NkiTensor's operators record assign, fill and the element-wise calls: they
# are _tensor's, made public here.
from ._tensor import (_ACTIVATION, _DMA_COPY, _DTYPES, _TENSOR_SCALAR, DynSlice, NkiTensor, _binary, _dtype,
                      _int_dims, _result, _shape, _unary, assign, divide, fill, negative)  # noqa: F401

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


# nl.device_print's recorded instruction (the spec's device_print).
_DEVICE_PRINT = _record.form("device_print", ("print_prefix", "tensor"))


def device_print(print_prefix, tensor):
    """NKI 0.6 nl.device_print: recorded as the .nasm device_print at this line,
    which prints `print_prefix`, the kernel's file:line, the tensor's dtype and
    shape and its values (as NumPy prints them) when the run reaches it: the
    values at this point of the kernel, to nisa.nki.run's print_to (stdout by
    default; docs/SEMANTICS.md S15.1)."""
    rec = _state.recording or recording()
    if not isinstance(print_prefix, str):
        raise rec.error(f"nl.device_print: print_prefix must be a str (NKI takes a constant string), not "
                        f"{type(print_prefix).__name__}")
    bad = next((c for c in print_prefix if c == '"' or c == "\x7f" or (c < " " and c != "\t")), None)
    if bad is not None:
        raise rec.error(f"nl.device_print: print_prefix {print_prefix!r} holds {bad!r}; a .nasm string holds no '\"' "
                        "and no control character (LANGUAGE.md 2.3)")
    if not isinstance(tensor, NkiTensor):
        raise rec.error(f"nl.device_print: tensor must be a tensor or tile, not {type(tensor).__name__}")
    rec.put(_DEVICE_PRINT, (_record.Text(print_prefix), tensor), ())



# The instruction nki.language's reductions record (_record.Form).
_TENSOR_REDUCE = _record.form('tensor_reduce', ('dst', 'op', 'data', 'axis', 'negate', 'keepdims'))


# --- tensors -----------------------------------------------------------------
_REGIONS = (sbuf, psum, hbm, private_hbm, shared_hbm)
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


for _name, _why in [("matmul", "not lowered yet; call nisa.nc_matmul"),
                    ("transpose", "not lowered yet; call nisa.nc_transpose"),
                    ("load_transpose2d", "not lowered yet; call nisa.dma_transpose"),
                    ("gather_flattened", "not lowered yet; call nisa.local_gather"),
                    ("dropout", "not lowered yet; call nisa.dropout"),
                    ("rand", "not lowered yet; call nisa.rng or nisa.rand2"),
                    ("random_seed", "not lowered yet; call nisa.set_rng_seed"),
                    ("where", "not lowered yet"), ("var", "not lowered yet"), ("all", "not lowered yet"),
                    ("softmax", "not lowered yet"), ("rms_norm", "not lowered yet"), ("cos", "not lowered yet"),
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
    if inspect.isfunction(_fn) and _fn.__module__ in (__name__, _tensor.__name__) and not _name.startswith("_"):
        _RAW[_name] = _fn
        globals()[_name] = checked(_fn, f"nl.{_name}")
        globals()[_name].__module__ = __name__  # nki.language's, wherever it is written
del _name, _fn
_new_tensor, _ndarray, _full, _zeros, _fill, _copy, _is_hbm, _is_on_chip, _assign = (
    _RAW[n] for n in ("new_tensor", "ndarray", "full", "zeros", "fill", "copy", "is_hbm", "is_on_chip", "assign"))
