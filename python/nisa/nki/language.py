"""nki.language as nisa records it (NKI 0.6, `nki/api/nki/language/__init__.py`).

Tensors (`ndarray`, `zeros`, ...), buffers, dtypes, `ds`, the range helpers,
`tile_size`, and the convenience calls NKI 0.6 still has, each lowered to the
nki.isa instructions nisa models (docs/PORTING.md, "nki.language convenience
calls"): `load`/`store` -> dma_copy; element-wise arithmetic -> tensor_tensor
or tensor_scalar; math functions -> activation; reductions -> tensor_reduce;
the calls that take several instructions (softmax, where, matmul, var, rand,
...) are _lowering's. Operators also serve as `op=` values of nki.isa calls
(`op=nl.add`).
"""
import builtins
import contextlib
import inspect
import numbers
import os

import numpy as np

from . import _dtypes, _lowering, _record, _registers, _spec, _tensor
from ._objects import NKIObject  # noqa: F401 (nki.language.NKIObject)
from ._record import _state, checked, recording
# NkiTensor's operators record assign, fill and the element-wise calls: they
# are _tensor's, made public here.
from ._tensor import (_DMA_COPY, _DTYPES, _TENSOR_COPY, _TENSOR_SCALAR, DynSlice, NkiTensor, _binary, _dtype,
                      _int_dims, _result, _shape, _unary, assign, divide, fill, negative)  # noqa: F401
# The calls lowered to several instructions (or to instructions other than
# the element-wise ones), and the reductions' shared code: _lowering's.
from ._lowering import (_reduce, all, ceil, cos, dropout, floor, gather_flattened, load_transpose2d,  # noqa: F401
                        logical_not, matmul, rand, random_seed, rms_norm, softmax, tan, transpose, trunc, var, where)

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

    # The SBUF figures are the arch's (the kernel's target while one is
    # recorded, else NEURON_PLATFORM_TARGET_OVERRIDE's, else trn2), from the
    # spec; nisa reserves no SBUF, so all of a partition is usable.
    @property
    def sbuf_fmax_bytes(self):
        """Usable SBUF bytes per partition."""
        return _spec.SBUF_PARTITION_BYTES[_target_arch()]

    @property
    def total_available_sbuf_size(self):
        """NKI 0.6's older name of sbuf_fmax_bytes (per partition, despite the name)."""
        return self.sbuf_fmax_bytes

    @property
    def sbuf_fmax(self):
        """sbuf_fmax_bytes in float32 elements."""
        return self.sbuf_fmax_bytes // 4

    @property
    def sbuf_size_bytes(self):
        """SBUF bytes of all partitions together."""
        return self.sbuf_fmax_bytes * _spec.PARTITIONS

    # nisa places a tile at any byte offset; its own placement aligns tiles to
    # 64 bytes (_record.ALIGN), which is what these say (the hardware's
    # figures are not public).
    psum_min_align = sbuf_min_align = _record.ALIGN


def _target_arch():
    rec = _state.recording
    if rec is not None:
        return rec.arch
    return _spec.PLATFORMS.get(os.environ.get("NEURON_PLATFORM_TARGET_OVERRIDE") or "trn2", "trn2")


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


# NKI 0.7: affine_range, sequential_range and static_range are deprecated
# and "default to Python range" (deep-dives/nki-loops): so they are in both versions.
sequential_range = static_range = affine_range

# The runtime loops, recorded once as loops (_registers.py): NKI 0.6's
# dynamic_range, and fori_loop / while_loop (0.6 and 0.7).
dynamic_range = checked(_registers.dynamic_range, "nl.dynamic_range")
fori_loop = checked(_registers.fori_loop, "nl.fori_loop")
while_loop = checked(_registers.while_loop, "nl.while_loop")


# --- the launch: which core this is (NKI 0.6 kernel[n], LANGUAGE.md 4) -------
# At kernel[n] the launch grid has one dimension of n programs, one per
# NeuronCore; launched without brackets it has none (program_ndim 0), and
# the kernel is the one program (program_id 0 of 1). Outside a kernel: the
# latter.
def program_id(axis=0):
    """This core's index along `axis` of the launch grid: 0 to n - 1 at kernel[n]."""
    _grid_axes("program_id", "axis", [axis])
    rec = _state.recording
    return 0 if rec is None else rec.core


def num_programs(axes=0):
    """The programs along `axes` of the launch grid (None: all): n at kernel[n]."""
    if axes is not None:
        _grid_axes("num_programs", "axes", list(axes) if isinstance(axes, (tuple, list)) else [axes])
    rec = _state.recording
    return 1 if rec is None else rec.cores


def program_ndim():
    """The launch grid's dimensions: 1 at kernel[n], 0 without brackets."""
    rec = _state.recording
    return 0 if rec is None else rec.grid_ndim


def _grid_axes(call, key, axes):
    """The launch grid has the one axis 0 (-1 naming it too); a kernel
    launched without brackets may still ask for axis 0 (nki-library does)."""
    for axis in axes:
        if not isinstance(axis, numbers.Integral) or isinstance(axis, bool) or axis not in (0, -1):
            raise _record.misuse(f"nl.{call}({key}={axis!r}): the launch grid has one axis, 0 (NKI 0.6 kernel[n] "
                                 "launches n programs, one per NeuronCore)")


class nc:
    """The legacy (neuronxcc.nki) launch dimension of NeuronCores:
    kernel[nl.nc(2)] is NKI 0.6's kernel[2]. Its grids of several programs
    per core (nl.nc(2) * 2, spmd_dim) are not modeled."""

    def __init__(self, cores):
        self.cores = cores

    def __repr__(self):
        return f"nc({self.cores!r})"

    def _several(self, *args):
        raise _record.misuse(f"{self!r} * ...: a launch grid of several programs per NeuronCore (the legacy "
                             "spmd_dim) is not modeled; kernel[nl.nc(2)] and kernel[2] launch two cores")

    __mul__ = __rmul__ = _several


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
    t = _new_tensor(shape, dtype, buffer, name, "tile" if _is_on_chip(buffer) else None)
    if address is not None:
        _place_at(t.storage, address)
    return t


def _place_at(storage, address):
    """ndarray(address=(partition, byte)): the tile at that byte of each
    partition, as `.sbuf NAME ... @ OFFSET` puts it; checked here against the
    memory's size, and against the other placed tiles once the kernel has
    returned (_record.Recording.place_on_chip)."""
    rec = _state.recording or recording()
    if not storage.on_chip:
        raise rec.error(f"ndarray(address=...) places an SBUF or PSUM tile, not a {storage.region} tensor")
    if not (isinstance(address, (tuple, list)) and len(address) == 2 and
            builtins.all(isinstance(a, numbers.Integral) and not isinstance(a, bool) for a in address)):
        raise rec.error(f"ndarray(address={address!r}): expected (partition offset, byte offset), two integers")
    partition, offset = int(address[0]), int(address[1])
    if partition != 0:
        raise rec.error(f"ndarray(address=({partition}, {offset})): nisa's tiles start at partition 0; a tile at "
                        "another partition offset is not modeled")
    capacity = (_record.SBUF_PARTITION_BYTES if storage.buffer == "sbuf" else _record.PSUM_PARTITION_BYTES)[rec.arch]
    size = storage.partition_bytes()
    if offset < 0 or offset + size > capacity:
        raise rec.error(f"ndarray(address=(0, {offset})): the {storage.shape} {storage.dtype} tile takes {size} bytes "
                        f"per partition, so it would end at byte {offset + size}, outside the {capacity} bytes of each "
                        f"{storage.buffer} partition on {rec.arch}")
    storage.address = offset


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
    """A new SBUF tile: on chip a tensor_copy (bits exactly for one dtype,
    else through float32: NKI 0.6's tensor_copy), from HBM a dma_copy."""
    rec = _state.recording or recording()
    out = _result(x.shape, _dtype(dtype) if dtype is not None else x.dtype, "copy")
    if x.storage.on_chip:
        rec.put(_TENSOR_COPY, (out, x))
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


# --- reductions (tensor_reduce; _lowering._reduce) -------------------------------
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


# --- constants in memory: identity matrices, shared_constant --------------------------
# The instruction shared_identity_matrix records after a memset of ones.
_AFFINE_SELECT = _record.form('affine_select', ('dst', 'pattern', 'channel_multiplier', 'on_true_tile',
                                                'on_false_value', 'cmp_op'))


def shared_identity_matrix(n, dtype=uint8, dst=None):
    """NKI 0.6: an n x n identity matrix in SBUF (into `dst` if given).
    Recorded as a memset of ones, then an affine_select that keeps the
    element of partition p and column f where p - f == 0 and writes 0
    elsewhere."""
    rec = _state.recording or recording()
    if not isinstance(n, numbers.Integral) or isinstance(n, bool) or not 1 <= n <= _spec.PARTITIONS:
        raise rec.error(f"shared_identity_matrix(n={n!r}): n is the number of partitions, 1 to {_spec.PARTITIONS}")
    n = int(n)
    if dst is None:
        dst = _new_tensor((n, n), dtype, sbuf, "", "identity")
    elif not isinstance(dst, NkiTensor) or dst.storage.buffer != sbuf or tuple(dst.shape) != (n, n):
        raise rec.error(f"shared_identity_matrix(n={n}, dst=...): dst must be an SBUF tile of shape ({n}, {n})")
    rec.put(_tensor._MEMSET, (dst, 1))
    rec.put(_AFFINE_SELECT, (dst, [[-1, n]], 1, dst, 0.0, "equal"))
    return dst


def shared_constant(constant):
    """NKI 0.6: a shared_hbm tensor holding `constant` (a NumPy array or the
    path of a .npy file), an input of the recorded program. The kernel cannot
    write it (NKI embeds it in the compiled kernel)."""
    rec = _state.recording or recording()
    if isinstance(constant, NkiTensor):
        raise rec.error("shared_constant takes a NumPy array or the path of a .npy file, not a tensor (an array "
                        "passed to the kernel is already an HBM tensor)")
    if isinstance(constant, (str, os.PathLike)):
        try:
            array = np.load(constant, allow_pickle=False)
        except (OSError, ValueError) as e:
            raise rec.error(f"shared_constant({os.fspath(constant)!r}): cannot read it as a .npy file: {e}") from None
    else:
        array = np.asarray(constant)
    dtype = _dtypes.canonical(array.dtype)
    if dtype is None or array.ndim == 0:
        raise rec.error(f"shared_constant: expected an array of a dtype nisa models (float32, float16, int8/16/32, "
                        f"uint8/16/32, bool) with at least one dimension, got {array.dtype} of shape {array.shape}")
    storage = rec.new_storage(shared_hbm, dtype, array.shape, "constant", role="input")
    storage.unwritable = "the kernel writes a tensor made by nl.shared_constant, which is read-only"
    rec.constants.append((storage, array))
    return NkiTensor(storage)


# --- NKI 0.6 names nisa does not model ---------------------------------------------
def _not_modeled(name, why):
    def fn(*args, **kwargs):
        raise recording().error(f"nl.{name} is not modeled by nisa: {why}")
    fn.__name__ = fn.__qualname__ = name
    return fn


_NO_REMAINDER = ("nisa's ALU has no remainder or divide operator, and x - y * floor(x / y) in float32 is not "
                 "NKI's exact remainder")
for _name, _why in [("fmod", _NO_REMAINDER), ("mod", _NO_REMAINDER)]:
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
    if inspect.isfunction(_fn) and _fn.__module__ in (__name__, _tensor.__name__, _lowering.__name__) and \
            not _name.startswith("_"):
        _RAW[_name] = _fn
        globals()[_name] = checked(_fn, f"nl.{_name}")
        globals()[_name].__module__ = __name__  # nki.language's, wherever it is written
del _name, _fn
_new_tensor, _ndarray, _full, _zeros, _fill, _copy, _is_hbm, _is_on_chip, _assign = (
    _RAW[n] for n in ("new_tensor", "ndarray", "full", "zeros", "fill", "copy", "is_hbm", "is_on_chip", "assign"))
