"""nki.language's computation calls beyond one element-wise instruction
(those are _tensor's), each lowered to the nki.isa instructions nisa models,
as NKI 0.6 documents them (`nki/api/nki/language/__init__.py`; where NKI
does not say how, the comment says which instructions and why):

    reductions (sum, max, ..., all)  tensor_reduce
    var                              bn_stats, bn_aggr
    softmax                          tensor_reduce, tensor_tensor/tensor_scalar, activation exp, reciprocal
    rms_norm                         activation square, tensor_reduce, activation rsqrt, multiplies
    where                            tensor_copy (or memset), tensor_copy_predicated
    transpose, load_transpose2d      nc_transpose (Vector or Tensor Engine), dma_transpose
    matmul                           nc_matmul (after an nc_transpose unless transpose_x)
    rand, random_seed, dropout       rng or rand2, set_rng_seed, dropout
    gather_flattened                 nc_n_gather
    cos, tan                         activation sin (with abs, reciprocal)
    floor, ceil, trunc               tensor_copy to int32 and back, tensor_copy_predicated
    logical_not                      tensor_scalar logical_xor (bitwise_xor) with 1

A result is a new tile, made just before the one instruction that writes
it where there is one, so that `t[...] = nl.call(...)` writes t there
directly (_tensor.assign); a result written twice (where, floor) is copied.
"""
import builtins
import math
import numbers

from . import _dtypes, _record, _spec
from ._record import _state, recording
from ._tensor import (_DMA_COPY, _MEMSET, _RAW, _TENSOR_COPY, _TENSOR_SCALAR, NkiTensor, _binary, _dtype, _int_dims,
                      _result, _unary, divide)

# The instructions recorded here (mnemonic and parameter names, _record.Form).
_TENSOR_REDUCE = _record.form('tensor_reduce', ('dst', 'op', 'data', 'axis', 'negate', 'keepdims'))
_TENSOR_SCALAR2 = _record.form('tensor_scalar', ('dst', 'data', 'op0', 'operand0', 'op1', 'operand1'))
_ACTIVATION_AFFINE = _record.form('activation', ('dst', 'op', 'data', 'bias', 'scale'))
_COPY_PREDICATED = _record.form('tensor_copy_predicated', ('dst', 'src', 'predicate', 'reverse_pred'))
_NC_TRANSPOSE = _record.form('nc_transpose', ('dst', 'data', 'engine'))
_NC_MATMUL = _record.form('nc_matmul', ('dst', 'stationary', 'moving', 'accumulate'))
_DMA_TRANSPOSE = _record.form('dma_transpose', ('dst', 'src'))
_BN_STATS = _record.form('bn_stats', ('dst', 'data'))
_BN_AGGR = _record.form('bn_aggr', ('dst', 'data'))
_RNG = _record.form('rng', ('dst', 'engine'))
_RAND2 = _record.form('rand2', ('dst', 'min', 'max'))
_SET_RNG_SEED = _record.form('set_rng_seed', ('src_seeds',))
_DROPOUT = _record.form('dropout', ('dst', 'data', 'prob'))
_NC_N_GATHER = _record.form('nc_n_gather', ('dst', 'data', 'indices'))

F32 = "float32"
_PREDICATE_DTYPES = ("uint8", "uint16", "uint32", "bool_")  # tensor_copy_predicated's (u8, u16, u32)
_BN_STATS_FMAX = 512  # bn_stats reads at most 512 elements per partition (nl.tile_size.bn_stats_fmax)


def _rec():
    return _state.recording or recording()


def _tile(rec, x, call, what="x"):
    """x, which must be an SBUF or PSUM tile."""
    if not isinstance(x, NkiTensor) or not x.storage.on_chip:
        kind = "an HBM tensor (load it first)" if isinstance(x, NkiTensor) else f"a {type(x).__name__}"
        raise rec.error(f"nl.{call}: {what} must be an SBUF or PSUM tile, not {kind}")
    return x


def _psum(shape, dtype, hint):
    """A new PSUM tile, the result of the instruction recorded next."""
    rec = _rec()
    storage = rec.new_storage("psum", dtype, tuple(shape), hint)
    storage.fresh_result = len(rec.instructions)
    return NkiTensor(storage)


def _converted(x, dtype, hint):
    """x as `dtype`: x itself, or a tensor_copy (NKI's cast through float32)."""
    if dtype is None or dtype == x.storage.dtype:
        return x
    out = _result(x._shape, dtype, hint)
    _rec().put(_TENSOR_COPY, (out, x))
    return out


def _in_sbuf(x, hint):
    """x, or a copy of it in SBUF when it is in PSUM (an operand the Tensor
    Engine or GpSimd reads only from SBUF)."""
    if x.storage.buffer == "sbuf":
        return x
    out = _result(x._shape, x.storage.dtype, hint)
    _rec().put(_TENSOR_COPY, (out, x))
    return out


def _per_partition(x):
    n = 1
    for d in x._shape[1:]:
        n *= d
    return n


def _fit(rec, t, shape, call, what):
    """Tile t viewed as `shape`: its size-1 free dimensions broadcast (a view),
    its partitions broadcast into a new tile."""
    if t._shape == shape:
        return t
    if len(t._shape) != len(shape):
        raise rec.error(f"nl.{call}: {what} of shape {t.shape} does not broadcast to {shape}")
    return _RAW["broadcast_to"](t, shape)


# --- reductions ----------------------------------------------------------------
def _axes(rec, x, axis, hint):
    """The reduced axes, sorted: NKI 0.6's rule, the last free dimensions."""
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
    return axes


def _reduced_shape(shape, axes, keepdims):
    kept = [1 if d in axes else n for d, n in enumerate(shape)] if keepdims else \
        [n for d, n in enumerate(shape) if d not in axes]
    if len(kept) == 1:
        kept.append(1)  # a tile keeps a free dimension
    return tuple(kept)


def _reduce(op, x, axis, dtype, keepdims, hint):
    rec = _rec()
    if not isinstance(x, NkiTensor) or not x.storage.on_chip:
        raise rec.error(f"nl.{hint} takes an SBUF or PSUM tile")
    axes = _axes(rec, x, axis, hint)
    out = _result(_reduced_shape(x._shape, axes, keepdims), _dtype(dtype) if dtype is not None else x.storage.dtype,
                  hint)
    rec.put(_TENSOR_REDUCE, (out, op, x, axes, False, bool(keepdims)))
    return out


def all(x, axis, dtype=None):
    """1.0 where every element along `axis` is nonzero (NaN is), else 0.0:
    tensor_reduce op=logical_and (S2.5)."""
    return _reduce("logical_and", x, axis, dtype, False, "all")


def var(x, axis, dtype=None, keepdims=False):
    """The biased variance (numpy.var) along `axis`. NKI 0.6: "keepdims:
    currently ignored; result always has keepdims=True shape". Lowered to the
    Vector Engine's statistics instructions, as NKI's layernorm kernels do:
    bn_stats over at most 512 elements at a time (bn_stats_fmax), bn_aggr
    to combine them, per kept index; then the variance column copied out."""
    rec = _rec()
    x = _tile(rec, x, "var")
    axes = _axes(rec, x, axis, "var")
    out_dtype = _dtype(dtype) if dtype is not None else x.storage.dtype
    partitions = x._shape[0]
    n = math.prod(x._shape[axes[0]:])
    rows = math.prod(x._shape[1:axes[0]])
    if not _RAW["is_contiguous"](x):  # a strided view: a contiguous copy, to read the rows in chunks
        staged = _result(x._shape, x.storage.dtype, "var")
        rec.put(_TENSOR_COPY, (staged, x))
        x = staged
    # Two-dimensional views throughout: row r of x is flat[:, r*n:(r+1)*n],
    # its statistics stats[:, 6*chunks*r:6*chunks*(r+1)], its (mean,
    # variance) moments[:, 2r:2r+2].
    flat = _RAW["reshape"](x, (partitions, rows * n))
    chunks = -(-n // _BN_STATS_FMAX)
    stats = _result((partitions, rows * 6 * chunks), F32, "bn_stats")
    moments = _result((partitions, rows * 2), F32, "bn_aggr")
    get = _RAW["__getitem__"]
    for r in range(rows):
        for c in range(chunks):
            start = r * n + c * _BN_STATS_FMAX
            part = get(flat, (slice(None), slice(start, builtins.min(start + _BN_STATS_FMAX, (r + 1) * n))))
            rec.put(_BN_STATS, (get(stats, (slice(None), slice(6 * (r * chunks + c), 6 * (r * chunks + c + 1)))), part))
        rec.put(_BN_AGGR, (get(moments, (slice(None), slice(2 * r, 2 * r + 2))),
                           get(stats, (slice(None), slice(6 * chunks * r, 6 * chunks * (r + 1))))))
    out = _result(_reduced_shape(x._shape, axes, True), out_dtype, "var")
    rec.put(_TENSOR_COPY, (out, get(moments, (slice(None), slice(1, 2 * rows, 2)))))
    return out


# --- composite calls -------------------------------------------------------------
def softmax(x, axis=-1, dtype=None):
    """exp(x - max(x)) / sum(exp(x - max(x))) along `axis`, in float32:
    tensor_reduce max, subtract, activation exp, tensor_reduce add, then
    nl.divide (reciprocal and multiply)."""
    rec = _rec()
    x = _tile(rec, x, "softmax")
    out_dtype = _dtype(dtype) if dtype is not None else x.storage.dtype
    top = _reduce("maximum", x, axis, F32, True, "softmax")
    shifted = _binary("subtract", x, top, F32)
    e = _unary("exp", shifted, F32)
    total = _reduce("add", e, axis, F32, True, "softmax")
    return divide(e, total, out_dtype)


def rms_norm(x, w, axis, n, epsilon=1e-06, dtype=None, compute_dtype=None):
    """x / RMS(x) * w, RMS(x) = sqrt(sum(x^2 along axis) / n + epsilon), in
    compute_dtype (float32 by default): activation square, tensor_reduce
    add, one activation rsqrt(sum * (1/n) + epsilon) (its scale and bias),
    then x times that and times w (a one-partition w is broadcast across
    x's partitions)."""
    rec = _rec()
    x = _tile(rec, x, "rms_norm")
    w = _tile(rec, w, "rms_norm", "w")
    if not isinstance(n, numbers.Integral) or isinstance(n, bool) or n < 1:
        raise rec.error(f"nl.rms_norm: n={n!r} must be a positive integer (the count of values in the mean)")
    if not isinstance(epsilon, numbers.Real) or isinstance(epsilon, bool):
        raise rec.error(f"nl.rms_norm: epsilon={epsilon!r} must be a number")
    compute = _dtype(compute_dtype, "compute_dtype") if compute_dtype is not None else F32
    out_dtype = _dtype(dtype) if dtype is not None else x.storage.dtype
    squares = _unary("square", x, compute)
    total = _reduce("add", squares, axis, compute, True, "rms_norm")
    inverse = _result(total._shape, compute, "rms_norm")
    rec.put(_ACTIVATION_AFFINE, (inverse, "rsqrt", total, float(epsilon), 1.0 / int(n)))
    normed = _binary("multiply", x, inverse, compute)
    return _binary("multiply", normed, _fit(rec, w, x._shape, "rms_norm", "w"), out_dtype)


def where(condition, x, y, dtype=None):
    """x where condition is nonzero, else y (NKI: "condition tile with float
    values (1.0 for True, 0.0 for False)"). y is copied into the result
    (converted to its dtype; memset for a number), then
    tensor_copy_predicated writes x where the predicate holds; a condition
    that is not u8/u16/u32 becomes the u8 predicate condition != 0 first
    (tensor_scalar not_equal: NaN is true, as in numpy.where)."""
    rec = _rec()
    condition = _tile(rec, condition, "where", "condition")
    shape = condition._shape
    for value, what in ((x, "x"), (y, "y")):
        if not (isinstance(value, numbers.Number) or isinstance(value, NkiTensor)):
            raise rec.error(f"nl.where: {what} must be a tile or a number, not a {type(value).__name__}")
        if isinstance(value, NkiTensor):
            _tile(rec, value, "where", what)
    x = _fit(rec, x, shape, "where", "x") if isinstance(x, NkiTensor) else x
    y = _fit(rec, y, shape, "where", "y") if isinstance(y, NkiTensor) else y
    first = x if isinstance(x, NkiTensor) else y if isinstance(y, NkiTensor) else condition
    out_dtype = _dtype(dtype) if dtype is not None else first.storage.dtype
    if condition.storage.dtype in _PREDICATE_DTYPES and condition.storage.buffer == "sbuf":
        predicate = condition
    else:
        predicate = _binary("not_equal", condition, 0.0, "uint8")
    if isinstance(x, NkiTensor):
        x = _converted(x, out_dtype, "where")
    out = _result(shape, out_dtype, "where")
    if isinstance(y, NkiTensor):
        rec.put(_TENSOR_COPY, (out, y))
    else:
        rec.put(_MEMSET, (out, y))
    source = x if isinstance(x, NkiTensor) else (
        int(x) if not _dtypes.is_float(out_dtype) and float(x).is_integer() else float(x))
    rec.put(_COPY_PREDICATED, (out, source, predicate, False))
    out.storage.fresh_result = None  # read-modify-write: the last instruction alone does not make it
    return out


# --- transposes and matmul --------------------------------------------------------
_VECTOR_TRANSPOSE_MAX = 32  # the Vector Engine transposes [32, 32] at most, the Tensor Engine [128, 128]
_PE_MAX = 128


def _transposed(rec, x, call):
    """nc_transpose of x ([P, F], free axes flattened) into a new [F, P] PSUM
    tile. NKI 0.6's nc_transpose: with no engine given "the best engine will
    be selected for the given input tile shape": the Vector Engine for
    [32, 32] or smaller (it reads SBUF or PSUM), else the Tensor Engine
    ([128, 128] at most, from SBUF)."""
    partitions, free = x._shape[0], _per_partition(x)
    if partitions <= _VECTOR_TRANSPOSE_MAX and free <= _VECTOR_TRANSPOSE_MAX:
        engine = "vector"
    elif partitions <= _PE_MAX and free <= _PE_MAX:
        engine = "tensor"
        x = _in_sbuf(x, call)
    else:
        raise rec.error(f"nl.{call}: a tile of {partitions} partitions and {free} elements per partition; "
                        f"nc_transpose takes [{_PE_MAX}, {_PE_MAX}] at most")
    out = _psum((free, partitions), x.storage.dtype, call)
    rec.put(_NC_TRANSPOSE, (out, x, engine))
    return out


def transpose(x, dtype=None):
    """x's partition and free dimensions swapped, in a new PSUM tile (NKI
    0.6's example copies the result out of PSUM): nc_transpose, bits exactly;
    with dtype=, x is converted first."""
    rec = _rec()
    x = _tile(rec, x, "transpose")
    return _transposed(rec, _converted(x, _dtype(dtype) if dtype is not None else None, "transpose"), "transpose")


def matmul(x, y, transpose_x=False):
    """x @ y (x.T @ y with transpose_x=True) into a new float32 PSUM tile:
    nc_matmul with stationary x.T ([K, M]) and moving y ([K, N]), overwriting
    (accumulate=false). NKI 0.6: without transpose_x "an additional transpose
    will be inserted to make x's partition dimension the contract dimension":
    an nc_transpose of x and its copy back to SBUF (the stationary is read
    from SBUF)."""
    rec = _rec()
    x = _tile(rec, x, "matmul", "x")
    y = _tile(rec, y, "matmul", "y")
    if not isinstance(transpose_x, bool):
        raise rec.error(f"nl.matmul: transpose_x={transpose_x!r} must be True or False")
    stationary = x if transpose_x else _in_sbuf(_transposed(rec, x, "matmul"), "matmul")
    stationary, moving = _in_sbuf(stationary, "matmul"), _in_sbuf(y, "matmul")
    if stationary._shape[0] != moving._shape[0]:
        what = "partitions" if transpose_x else "elements per partition"
        raise rec.error(f"nl.matmul: x's {what} ({stationary._shape[0]}) must match y's partitions "
                        f"({moving._shape[0]}): the contraction dimension")
    out = _psum((_per_partition(stationary), _per_partition(moving)), F32, "matmul")
    rec.put(_NC_MATMUL, (out, stationary, moving, False))
    return out


def load_transpose2d(src, dtype=None):
    """HBM src [F, P] into a new SBUF tile [P, F], transposed. 2-byte dtypes:
    dma_transpose (NKI's DMA transpose takes those only); others: a load,
    an nc_transpose on the Tensor Engine and a copy out of PSUM (both sides
    at most 128)."""
    rec = _rec()
    if not isinstance(src, NkiTensor) or src.storage.on_chip or src.dynamic is not None:
        raise rec.error("nl.load_transpose2d takes a 2-D HBM tensor (a static view)")
    if len(src._shape) != 2:
        raise rec.error(f"nl.load_transpose2d takes a 2-D HBM tensor, not one of shape {src.shape}")
    rows, columns = src._shape
    if columns > _PE_MAX:
        raise rec.error(f"nl.load_transpose2d: {columns} columns become partitions; at most {_PE_MAX}")
    if _dtypes.size(src.storage.dtype) == 2:
        out = _result((columns, rows), src.storage.dtype, "load_transpose2d")
        rec.put(_DMA_TRANSPOSE, (out, src))
    else:
        if rows > _PE_MAX:
            raise rec.error(f"nl.load_transpose2d: a {src.storage.dtype} tensor of {rows} rows; the Tensor Engine "
                            f"transposes at most {_PE_MAX} (the DMA transpose takes 2-byte dtypes only)")
        loaded = _result((rows, columns), src.storage.dtype, "load_transpose2d")
        rec.put(_DMA_COPY, (loaded, src))
        flipped = _transposed(rec, loaded, "load_transpose2d")
        out = _result(flipped._shape, flipped.storage.dtype, "load_transpose2d")
        rec.put(_TENSOR_COPY, (out, flipped))
    return _converted(out, _dtype(dtype) if dtype is not None else None, "load_transpose2d")


def gather_flattened(data, indices, axis=0, dtype=None):
    """out[p, j] = data[p, indices[p, j]] over data's flattened free
    elements: nc_n_gather (uint32 indices; other integer indices are copied
    to uint32 bit for bit first). NKI 0.6's own example gathers along the
    free elements with the default axis=0; the last axis names the same."""
    rec = _rec()
    data = _tile(rec, data, "gather_flattened", "data")
    indices = _tile(rec, indices, "gather_flattened", "indices")
    if not isinstance(axis, numbers.Integral) or axis not in (0, -1, data.ndim - 1):
        raise rec.error(f"nl.gather_flattened(axis={axis!r}): gathers along the flattened free elements of each "
                        "partition (axis=0, NKI's default, or the last axis)")
    if _dtypes.is_float(indices.storage.dtype):
        raise rec.error(f"nl.gather_flattened: indices must have an integer dtype, not {indices.storage.dtype}")
    if indices.storage.dtype != "uint32" or indices.storage.buffer != "sbuf":
        indices = _binary("bitwise_or", indices, 0, "uint32")
    data = _in_sbuf(data, "gather_flattened")
    out = _result(indices._shape, data.storage.dtype, "gather_flattened")
    rec.put(_NC_N_GATHER, (out, data, indices))
    return _converted(out, _dtype(dtype) if dtype is not None else None, "gather_flattened")


# --- random numbers ----------------------------------------------------------------
# docs/SEMANTICS.md S11.5: nisa's generators start seeded with 0, so a kernel
# that draws without nl.random_seed gets the same numbers on every run; after
# nl.random_seed(s), the numbers follow from s alone (the same on every
# machine). On hardware, draws before a seed are not reproducible.
def _has_rand2(arch):
    return _spec.ARCHS[arch]["version"] >= _spec.ARCHS[_spec.INSTRUCTIONS["rand2"]["arch"]]["version"]


def rand(shape, dtype=F32, buffer="sbuf", name=""):
    """A new tile of uniform values in [0, 1): u = (b >> 8) * 2^-24 of 32
    random bits b (S11.5), converted to dtype (rounding can reach 1.0 in a
    narrower float). rand2(min=0, max=1) where the arch has it (NeuronCore-v4
    on); before it, rng's bits, a right shift by 8 and a multiply by 2^-24,
    which give the same values. dtype defaults to float32 (older kernels
    call nl.rand(shape))."""
    rec = _rec()
    if buffer not in ("sbuf", "psum"):
        raise rec.error(f"nl.rand(buffer={buffer!r}): random tiles are drawn on chip (nl.sbuf or nl.psum); "
                        "store the tile to put it in HBM")
    out_dtype = _dtype(dtype)
    shape = tuple(shape) if isinstance(shape, (tuple, list)) else (shape,)
    if _has_rand2(rec.arch):
        out = NkiTensor(rec.new_storage(buffer, out_dtype, shape, "rand", user_name=name or ""))
        out.storage.fresh_result = len(rec.instructions)
        rec.put(_RAND2, (out, 0.0, 1.0))
        return out
    bits = _result(shape, "uint32", "rand_bits")
    rec.put(_RNG, (bits, "vector"))
    rec.put(_TENSOR_SCALAR, (bits, bits, "right_shift", 8))
    out = NkiTensor(rec.new_storage(buffer, out_dtype, shape, "rand", user_name=name or ""))
    out.storage.fresh_result = len(rec.instructions)
    rec.put(_TENSOR_SCALAR, (out, bits, "multiply", 2.0 ** -24))
    return out


def random_seed(seed):
    """Seeds the Vector Engine's generators: set_rng_seed from a [1, 1] int32
    or uint32 tile (NKI 0.6), or from a Python integer (memset into one)."""
    rec = _rec()
    if isinstance(seed, numbers.Integral) and not isinstance(seed, bool):
        if not 0 <= seed < 2 ** 32 and not -2 ** 31 <= seed < 0:
            raise rec.error(f"nl.random_seed({seed}): a seed is 32 bits")
        tile = _result((1, 1), "uint32", "seed")
        rec.put(_MEMSET, (tile, int(seed) & 0xFFFFFFFF))
        seed = tile
    seed = _tile(rec, seed, "random_seed", "seed")
    if seed._shape != (1, 1) or seed.storage.dtype not in ("int32", "uint32"):
        raise rec.error(f"nl.random_seed: the seed is a [1, 1] int32 or uint32 tile, not {seed.shape} "
                        f"{seed.storage.dtype}")
    rec.put(_SET_RNG_SEED, (seed,), ())


def dropout(x, rate, dtype=None):
    """x with each element zeroed where a uniform draw u < rate (dropout:
    S11.8; no rescaling of the kept values, as NKI's docstring says none).
    rate: a number in [0, 1] or a [P, 1] tile of per-partition rates."""
    rec = _rec()
    x = _tile(rec, x, "dropout")
    if isinstance(rate, NkiTensor):
        rate = _tile(rec, rate, "dropout", "rate")
    elif not isinstance(rate, numbers.Real) or isinstance(rate, bool) or not 0.0 <= rate <= 1.0:
        raise rec.error(f"nl.dropout: rate={rate!r} must be a probability in [0, 1] or a [P, 1] tile")
    else:
        rate = float(rate)
    out = _result(x._shape, x.storage.dtype, "dropout")
    rec.put(_DROPOUT, (out, x, rate))
    return _converted(out, _dtype(dtype) if dtype is not None else None, "dropout")


# --- functions the activation table lacks --------------------------------------------
_HALF_PI = math.pi / 2


def cos(x, dtype=None):
    """cos x = sin(pi/2 - |x|): activation abs, then activation sin with
    scale -1 and bias pi/2 (float32), which keeps sin's argument in its valid
    range [-pi, pi] (S5) for |x| <= 3pi/2. Approximate: pi/2 - |x| is rounded
    to float32 before the sine."""
    rec = _rec()
    x = _tile(rec, x, "cos")
    magnitude = _unary("abs", x, F32)
    out = _result(x._shape, _dtype(dtype) if dtype is not None else x.storage.dtype, "cos")
    rec.put(_ACTIVATION_AFFINE, (out, "sin", magnitude, _HALF_PI, -1.0))
    return out


def tan(x, dtype=None):
    """sin x / cos x: activation sin, cos as above, nl.divide."""
    rec = _rec()
    x = _tile(rec, x, "tan")
    return divide(_unary("sin", x, F32), cos(x, F32), _dtype(dtype) if dtype is not None else x.storage.dtype)


_EXACT_INTEGERS = 2.0 ** 23  # every float32 of at least this magnitude is an integer


def _floor(x, hint):
    """floor(x) in float32, exactly (the sign of a zero aside): x rounded to
    the nearest int32 (tensor_copy: S2.3 rounds to nearest even) and back,
    minus 1 where that is above x; where |x| >= 2^23 (already an integer,
    and maybe beyond int32), or x is NaN or infinite, x itself
    (tensor_copy_predicated)."""
    rec = _rec()
    x = _converted(x, F32, hint)
    nearest = _converted(x, "int32", hint)
    whole = _converted(nearest, F32, hint)
    above = _binary("greater", whole, x, F32)
    floored = _binary("subtract", whole, above, F32)
    small = _result(x._shape, "uint8", hint)
    rec.put(_TENSOR_SCALAR2, (small, x, "abs", 0.0, "less", _EXACT_INTEGERS))
    rec.put(_COPY_PREDICATED, (floored, x, small, True))
    floored.storage.fresh_result = None
    return floored


def floor(x, dtype=None):
    """The largest integer <= x (see _floor); nisa's ALU has no rounding operator."""
    rec = _rec()
    x = _tile(rec, x, "floor")
    return _converted(_floor(x, "floor"), _dtype(dtype) if dtype is not None else x.storage.dtype, "floor")


def ceil(x, dtype=None):
    """ceil(x) = -floor(-x)."""
    rec = _rec()
    x = _tile(rec, x, "ceil")
    negated = _binary("multiply", x, -1.0, F32)
    return _binary("multiply", _floor(negated, "ceil"), -1.0, _dtype(dtype) if dtype is not None else x.storage.dtype)


def trunc(x, dtype=None):
    """trunc(x) = sign(x) * floor(|x|) (activation sign and abs)."""
    rec = _rec()
    x = _tile(rec, x, "trunc")
    magnitude = _floor(_unary("abs", x, F32), "trunc")
    return _binary("multiply", magnitude, _unary("sign", x, F32),
                   _dtype(dtype) if dtype is not None else x.storage.dtype)


def logical_not(x, dtype=None):
    """NKI 0.6: "Implemented as XOR with 1, so inputs should be boolean-like":
    tensor_scalar bitwise_xor 1 on an integer tile, logical_xor 1.0 on a float
    one (1.0 where x is 0, else 0.0)."""
    rec = _rec()
    x = _tile(rec, x, "logical_not")
    if _dtypes.is_float(x.storage.dtype):
        return _binary("logical_xor", x, 1.0, dtype)
    return _binary("bitwise_xor", x, 1, dtype)
