"""NkiTensor: a view of a declared tensor (NKI 0.6 `nki.language.NkiTensor`).

A view is the tensor it looks at, an element offset and a list of
[stride, count] pairs (NKI's access pattern, `get_pattern()`); every view
operation (indexing, `ds`, `ap`, `reshape`, `broadcast`, `select`, ...) makes
a new view and copies nothing. In the recorded text a view is a slice of the
declared tensor where one says the same (`x[0:128, 512:1024]`), else an
access pattern with the offset counted from the tensor's start
(`x.ap(pattern=[[512, 128], [1, 64]], offset=K)`, LANGUAGE.md 2.3).
"""
import inspect
import numbers

from .. import Error, _nisa
from . import _dtypes, _record
from ._registers import Register
from ._record import _PYTHON_ERRORS, _MissingAttribute, _state, checked, misuse, recording


class DynSlice:
    """nl.ds(start, size): `size` elements from `start`."""

    __slots__ = ("start", "size")

    def __init__(self, start, size):
        self.start, self.size = start, size

    def __repr__(self):
        return f"ds({self.start}, {self.size})"


def _row_major(shape):
    strides, n = [], 1
    for d in reversed(shape):
        strides.append(n)
        n *= d
    return list(reversed(strides))


def _whole(storage):
    """The (stride, count) pairs of the whole declared tensor, a tuple kept on
    the storage (views' patterns are tuples of pairs: shared, never changed)."""
    whole = storage.whole_pattern
    if whole is None:
        shape = storage.shape
        whole = _WHOLE.get(shape)
        if whole is None:
            if len(_WHOLE) > 4096:
                _WHOLE.clear()
            whole = _WHOLE[shape] = tuple(zip(_row_major(shape), shape))
        storage.whole_pattern = whole
    return whole


_WHOLE = {}  # shape -> its whole pattern: shared by every storage of that shape


def _new(storage, offset, pattern, shape):
    """A view from a pattern already a tuple of (stride, count) tuples and its shape."""
    view = _NEW(NkiTensor)
    view.storage, view.dynamic, view.offset, view.pattern = storage, None, offset, pattern
    view._shape, view._whole, view._text = shape, None, None
    return view


_NEW = object.__new__


def _is_int(x):
    t = type(x)
    if t is int:  # the common case, without the numbers.Integral ABC check
        return True
    return t is not bool and isinstance(x, numbers.Integral)


class NkiTensor:
    __array_ufunc__ = None  # NumPy scalars defer to our operators (np.float32(2) * t)
    # pattern: a tuple of (stride, count) tuples, never changed (views share
    # it); _shape: its counts; _whole: whether offset and pattern are the whole
    # tensor's (None: not yet known); _text: render()'s text once names exist.
    __slots__ = ("storage", "dynamic", "offset", "pattern", "_shape", "_whole", "_text")

    def __init__(self, storage, offset=0, pattern=None):
        self.storage = storage
        self.dynamic = None  # dynamic access: ("vector" | "scalar" | "tensor", index NkiTensor, indirect_dim, index_stride)
        self.offset = offset
        if pattern is None:
            self.pattern = storage.whole_pattern or _whole(storage)
            self._shape = storage.shape
            self._whole = offset == 0
        else:
            self.pattern = pattern = tuple([tuple(p) for p in pattern])
            self._shape = tuple([n for _, n in pattern])
            self._whole = None
        self._text = None

    def _retarget(self, view):
        """Makes this view look where `view` does (language.assign)."""
        self.storage, self.offset, self.pattern = view.storage, view.offset, view.pattern
        self._shape, self._whole, self._text = view._shape, view._whole, None

    # --- what it is ----------------------------------------------------------
    @property
    def shape(self):
        return self._shape

    @property
    def strides(self):
        return tuple([s for s, _ in self.pattern])

    @property
    def dtype(self):
        return self.storage.dtype

    @property
    def buffer(self):
        return self.storage.region

    @property
    def name(self):
        return self.storage.user_name or self.storage.hint

    @property
    def ndim(self):
        return len(self.pattern)

    @property
    def size(self):
        n = 1
        for d in self.shape:
            n *= d
        return n

    def partitions(self):
        return self._shape[0] if self._shape else 1

    def elements_per_partition(self):
        n = 1
        for d in self._shape[1:]:
            n *= d
        return n

    def get_pattern(self):
        return [list(p) for p in self.pattern]

    def is_contiguous(self):
        dims = self.pattern[1:] if self.storage.on_chip else self.pattern
        expected = 1
        for stride, count in reversed(dims):
            if count != 1 and stride != expected:
                return False
            expected *= count
        return True

    def is_indirect(self):
        return self.dynamic is not None

    def is_whole(self):
        whole = self._whole
        if whole is None:
            whole = self._whole = self.offset == 0 and self.pattern == _whole(self.storage)
        return whole

    def __repr__(self):
        return f"NkiTensor({self.render() if self.storage.name else self.name}, shape={self.shape}, dtype={self.dtype}, " \
               f"buffer={self.buffer})"

    def __getattr__(self, name):
        # Only reached for a name NkiTensor does not have: a nisa.Error that is
        # also an AttributeError, so that hasattr() still answers False.
        if name.startswith("__"):
            raise AttributeError(name)
        raise misuse(f"a tensor has no attribute '{name}' (nisa.nki models NKI 0.6's NkiTensor: shape, dtype, "
                     "buffer, views such as reshape, ap, broadcast_to, select)", _MissingAttribute)

    def _view(self, offset, pattern):
        self.storage.aliased = True
        return NkiTensor(self.storage, offset, pattern)

    # --- views ---------------------------------------------------------------
    def __getitem__(self, key):
        # Python's errors from bad arguments raised as nisa.Error at the kernel's
        # line, as checked() does (one frame less: views are taken often).
        try:
            rec = _state.recording or recording()
            pattern = self.pattern
            if key.__class__ is tuple and len(key) == len(pattern):
                # The most common key, a start:stop slice within every
                # dimension: what the loop below makes of it, without its other cases.
                offset, out, shape = self.offset, [], []
                for k, (stride, count) in zip(key, pattern):
                    if k.__class__ is not slice or k.step is not None:
                        break
                    start, stop = k.start, k.stop
                    if start.__class__ is not int or stop.__class__ is not int or not 0 <= start < stop <= count:
                        break
                    offset += start * stride
                    out.append((stride, stop - start))
                    shape.append(stop - start)
                else:
                    self.storage.aliased = True
                    return _new(self.storage, offset, tuple(out), tuple(shape))
            if key.__class__ is not tuple:
                key = (key,)
            ndim = len(pattern)
            for k in key:
                if k is Ellipsis:
                    if sum(1 for k in key if k is Ellipsis) > 1:
                        raise rec.error("an index can only have a single ellipsis ('...')")
                    at = next(i for i, k in enumerate(key) if k is Ellipsis)
                    key = key[:at] + (slice(None),) * (ndim - len(key) + 1) + key[at + 1:]
                    break
            if len(key) > ndim:
                raise rec.error(f"too many indices: {len(key)} for a tensor of shape {self._shape}")
            if len(key) < ndim:
                key = key + (slice(None),) * (ndim - len(key))
            offset, out, shape = self.offset, [], []
            storage = self.storage
            dim = -1
            for k, (stride, count) in zip(key, pattern):
                dim += 1
                if k.__class__ is not slice:
                    if k.__class__ is int or _is_int(k):
                        index = int(k) + count if k < 0 else int(k)
                        if not 0 <= index < count:
                            raise rec.error(f"index {int(k)} is out of bounds for dimension {dim} of size {count} "
                                            f"(tensor shape {self._shape})")
                        offset += index * stride
                        if dim == 0 and storage.on_chip:
                            out.append((stride, 1))  # the partition dimension stays (NKI 0.6)
                            shape.append(1)
                        continue
                    if isinstance(k, DynSlice):
                        if not (_is_int(k.start) and _is_int(k.size)):
                            raise rec.error("nl.ds(start, size) takes integers (nisa.nki records static indices only)")
                        if k.start < 0 or k.size < 0:
                            raise rec.error(f"nl.ds({k.start}, {k.size}) of dimension {dim}: the start and the size "
                                            "must be at least 0")
                        k = slice(int(k.start), int(k.start) + int(k.size))
                    elif isinstance(k, NkiTensor):
                        raise rec.error("indexing with a tensor (dynamic indexing) is not modeled by nisa")
                    else:
                        raise rec.error(f"index {k!r} of dimension {dim}: expected an int, a slice or "
                                        "nl.ds(start, size)")
                step = k.step
                if step is None:
                    step = 1
                elif not _is_int(step) or step < 1:
                    raise rec.error(f"slice step {step!r} of dimension {dim}: must be a positive integer")
                start = 0 if k.start is None else k.start
                stop = count if k.stop is None else k.stop
                if not ((start.__class__ is int or _is_int(start)) and (stop.__class__ is int or _is_int(stop))):
                    raise rec.error(f"slice {start!r}:{stop!r} of dimension {dim}: bounds must be integers")
                if start < 0:
                    start = start + count
                if stop < 0:
                    stop = stop + count
                # An empty slice (start == stop; nl.ds(i, 0)) is a view of no elements, as in NumPy: a
                # kernel may take one it never uses (nki-library's cross_entropy at LNC=2 gives a core
                # no position when there is one); an instruction refuses it.
                if not (0 <= start < stop <= count or 0 <= start == stop <= count):
                    raise rec.error(f"slice {_slice_text(k)} is out of bounds for dimension {dim} of size {count} "
                                    f"(tensor shape {self._shape})")
                offset += start * stride
                n = -(-(stop - start) // int(step))
                out.append((stride * step, n))
                shape.append(n)
            if not out:
                out, shape = ((1, 1),), (1,)
            storage.aliased = True
            return _new(storage, offset, tuple(out), tuple(shape))
        except _PYTHON_ERRORS as e:
            if isinstance(e, Error):  # already located (an AttributeError-like nisa.Error)
                raise
            raise misuse(f"tensor.getitem: {e}") from e

    def __setitem__(self, key, value):
        target = _RAW["__getitem__"](self, key)
        if isinstance(value, NkiTensor):
            assign(target, value)
        elif isinstance(value, numbers.Number):
            fill(target, value)
        else:
            raise recording().error(f"cannot assign a {type(value).__name__} to a tensor")

    def slice(self, dim, start, end, step=1):
        key = [slice(None)] * self.ndim
        key[dim] = slice(start, end, step)
        return _RAW["__getitem__"](self, tuple(key))

    def select(self, dim, index):
        if isinstance(index, NkiTensor):  # nki-aps: one runtime index from SBUF, the dimension removed
            pattern = [p for d, p in enumerate(self.pattern) if d != dim]
            return self._dynamic("scalar", index, dim, self.offset, pattern or [[1, 1]])
        if not _is_int(index):
            raise recording().error(f"select index {index!r}: expected an int or an SBUF index tensor")
        key = [slice(None)] * self.ndim
        key[dim] = index
        return _RAW["__getitem__"](self, tuple(key))  # removes the dimension (an on-chip partition dimension stays, size 1)

    def vector_select(self, dim, offsets):
        """nki-aps: partition p of the result reads row offsets[p] of this HBM
        tensor (dim must be 0); recorded as .ap(..., vector_offset=...)."""
        rec = recording()
        if dim != 0:
            raise rec.error(f"vector_select(dim={dim}): NKI 0.6 selects on dimension 0 only")
        rows = offsets.shape[0]
        return self._dynamic("vector", offsets, 0, self.offset, [[self.pattern[0][0], rows]] + list(self.pattern[1:]))

    def _dynamic(self, kind, index, dim, offset, pattern):
        rec = recording()
        if self.storage.on_chip and not isinstance(index, Register):
            raise rec.error("a runtime index (vector_offset / scalar_offset, select or vector_select with a tensor) "
                            "indexes an HBM tensor (NKI 0.6 indirect DMA)")
        if self.dynamic is not None:
            raise rec.error("only one dynamic index is allowed per view (NKI 0.6)")
        view = self._view(offset, pattern)
        view.dynamic = (kind, index) + _indirect_operand(rec, self, kind, dim)
        return view

    def indirect(self, index, num_elem=None):
        """NKI 0.6 NkiTensor.indirect (Tensor Indirection, NeuronCore-v4): a
        (P, num_elem) view of this (P, F) on-chip view whose column i sits at
        the free offset the index tile gives (its snake order, docs/SEMANTICS.md
        S1.7); num_elem defaults to index.size. Recorded as .ap(...,
        indirect=IDX); which instructions take it, on which arch, and the
        base-partition rules are checked when the program is assembled."""
        rec = recording()
        if not self.storage.on_chip:
            raise rec.error(".indirect(): Tensor Indirection reads an SBUF or PSUM tile; this one is in HBM")
        if self.dynamic is not None:
            raise rec.error(".indirect(): the view already has a runtime index")
        if len(self.pattern) != 2:
            raise rec.error(f".indirect(): takes a 2-D (P, F) view, got shape {tuple(self.shape)}")
        if not isinstance(index, NkiTensor):
            raise rec.error(f".indirect(): the index must be an SBUF tensor, got {type(index).__name__}")
        if index.ndim != 2 or index.shape[0] != self.shape[0]:
            raise rec.error(f".indirect(): the index must be (P, K) with P = {self.shape[0]}, got shape {tuple(index.shape)}")
        n = index.size if num_elem is None else num_elem
        if not _is_int(n) or n < 1:
            raise rec.error(f".indirect(): num_elem {num_elem!r} must be a positive integer")
        (partition_step, parts), (step, _) = self.pattern
        view = self._view(self.offset, [[partition_step, parts], [step, int(n)]])
        view.dynamic = ("tensor", index, 1, None)
        return view

    def ap(self, pattern, offset=None, scalar_offset=None, vector_offset=None, indirect_dim=0, dtype=None):
        """NKI 0.6 `.ap`: `offset` (None = 0) is added to this view's offset;
        scalar_offset / vector_offset make it a dynamic view (nki-aps)."""
        rec = recording()
        if scalar_offset is not None and vector_offset is not None:
            raise rec.error(".ap: scalar_offset and vector_offset are mutually exclusive")
        if scalar_offset is not None or vector_offset is not None:
            start = self.offset + (int(offset) if offset is not None else 0)
            kind, index = ("vector", vector_offset) if vector_offset is not None else ("scalar", scalar_offset)
            if kind == "scalar" and isinstance(index, Register):  # a register's value (NKI fori_loop's i)
                if index.token is not rec.token or index.core != rec.core:
                    raise rec.error(f".ap scalar_offset: {index!r} belongs to another kernel call or core")
            elif not isinstance(index, NkiTensor):
                raise rec.error(f".ap {kind}_offset: expected an SBUF index tensor" +
                                (" or a register" if kind == "scalar" else "") + f", got {type(index).__name__}")
            return self._dynamic(kind, index, indirect_dim, start, [[int(s), int(n)] for s, n in pattern])
        if dtype is not None and _dtypes.canonical(dtype) != self.dtype:
            raise rec.error(".ap with another dtype (a reinterpreting view) is not modeled by nisa")
        if not pattern or any(len(p) != 2 or not _is_int(p[0]) or not _is_int(p[1]) or p[1] < 1 for p in pattern):
            raise rec.error(f".ap pattern {pattern!r}: expected [[stride, count], ...] with integer strides and "
                            "positive counts")
        if offset is not None and not _is_int(offset):
            raise rec.error(f".ap offset {offset!r}: expected an integer")
        start = self.offset + (int(offset) if offset is not None else 0)
        low = start + sum((n - 1) * s for s, n in pattern if s < 0)
        high = start + sum((n - 1) * s for s, n in pattern if s > 0)
        total = 1
        for d in self.storage.shape:
            total *= d
        if low < 0 or high >= total:
            raise rec.error(f".ap(pattern={[list(p) for p in pattern]}, offset={start}) reaches element "
                            f"{low if low < 0 else high}, outside the {total} elements of the tensor "
                            f"(shape {self.storage.shape})")
        if self.storage.on_chip:
            per_partition = total // self.storage.shape[0]
            if pattern[0][0] != per_partition:
                raise rec.error(f".ap on an {self.storage.buffer} tile: the first pair is the partition dimension and "
                                f"its stride must be the tile's elements per partition ({per_partition}), "
                                f"not {pattern[0][0]}")
        return self._view(start, [[int(s), int(n)] for s, n in pattern])

    def reshape(self, shape):
        rec = recording()
        shape = _infer_shape(rec, shape, self.size)
        if self.storage.on_chip:
            if shape[0] != self.shape[0]:
                raise rec.error(f"reshape of an on-chip tile keeps the partition dimension: {self.shape} -> {shape}")
            if not _RAW["is_contiguous"](self):
                raise rec.error(f"reshape {self.shape} -> {shape}: the view's free dimensions are not contiguous")
            return self._view(self.offset, [self.pattern[0]] + [[s, n] for s, n in zip(_row_major(shape[1:]), shape[1:])])
        if not _RAW["is_contiguous"](self):
            raise rec.error(f"reshape {self.shape} -> {shape}: the view is not contiguous")
        return self._view(self.offset, [[s, n] for s, n in zip(_row_major(shape), shape)])

    def permute(self, dims):
        rec = recording()
        if sorted(dims) != list(range(self.ndim)):
            raise rec.error(f"permute {tuple(dims)}: not a permutation of the {self.ndim} dimensions")
        if self.storage.on_chip and dims[0] != 0:
            raise rec.error("permute of an on-chip tile keeps the partition dimension first")
        return self._view(self.offset, [self.pattern[d] for d in dims])

    def broadcast(self, dim, size):
        rec = recording()
        dim = dim + self.ndim if dim < 0 else dim
        if not 0 <= dim < self.ndim or self.shape[dim] != 1:
            raise rec.error(f"broadcast({dim}, {size}): the dimension must exist and have size 1 (shape {self.shape})")
        if self.storage.on_chip and dim == 0:
            raise rec.error("broadcast(0, ...): an on-chip tile's view cannot broadcast its partition dimension "
                            "(NKI 0.6); nl.broadcast_to makes a new tile that does")
        pattern = self.get_pattern()
        pattern[dim] = [0, int(size)]
        return self._view(self.offset, pattern)

    def broadcast_to(self, shape):
        rec = recording()
        if not isinstance(shape, (tuple, list)) or not all(_is_int(d) for d in shape):
            raise rec.error(f"broadcast_to {shape!r}: expected a tuple of integers")
        shape = tuple(shape)
        if len(shape) != self.ndim:
            raise rec.error(f"broadcast_to {shape}: must have the rank of {self.shape}")
        view, partitions = self, None
        for dim, (have, want) in enumerate(zip(self.shape, shape)):
            if have != want:
                if have != 1:
                    raise rec.error(f"broadcast_to {shape}: dimension {dim} of size {have} is not 1")
                if dim == 0 and self.storage.on_chip:
                    partitions = int(want)
                    continue
                view = _RAW["broadcast"](view, dim, want)
        if partitions is not None:
            # Partitions are separate memories: no view reaches them. NKI's
            # broadcast_to gives "a new tile broadcast along the partition
            # dimension", in SBUF.
            return _broadcast_partitions(view, partitions)
        return view

    def expand_dim(self, dim):
        rec = recording()
        if self.storage.on_chip and dim == 0:
            raise rec.error("expand_dim: an on-chip tile keeps its partition dimension first")
        pattern = self.get_pattern()
        pattern.insert(dim, [1, 1])
        return self._view(self.offset, pattern)

    def squeeze_dim(self, dim):
        rec = recording()
        if self.shape[dim] != 1 or (self.storage.on_chip and dim == 0):
            raise rec.error(f"squeeze_dim({dim}): needs a free dimension of size 1 (shape {self.shape})")
        pattern = self.get_pattern()
        del pattern[dim]
        return self._view(self.offset, pattern)

    def reshape_dim(self, dim, shape):
        rec = recording()
        stride, count = self.pattern[dim]
        shape = _infer_shape(rec, shape, count)
        pattern = self.get_pattern()
        pattern[dim:dim + 1] = [[stride * s, n] for s, n in zip(_row_major(shape), shape)]
        return self._view(self.offset, pattern)

    def flatten_dims(self, start_dim, end_dim):
        rec = recording()
        dims = self.pattern[start_dim:end_dim + 1]
        for (outer, _), (inner, count) in zip(dims, dims[1:]):
            if outer != inner * count:
                raise rec.error(f"flatten_dims({start_dim}, {end_dim}): the dimensions are not contiguous")
        total = 1
        for _, n in dims:
            total *= n
        pattern = self.get_pattern()
        pattern[start_dim:end_dim + 1] = [[dims[-1][0], total]]
        return self._view(self.offset, pattern)

    # --- the .nasm operand ---------------------------------------------------
    def render(self):
        text = self._text
        if text is not None:
            return text
        s = self.storage
        if self.dynamic is None:
            whole = self._whole
            if whole is None:
                whole = self._whole = self.offset == 0 and self.pattern == _whole(s)
            if whole:
                return s.name  # the whole tensor, the most common operand
            text = self._render()
            if s.name is not None:
                self._text = text  # the view and the names no longer change
            return text
        return self._render()

    def _render(self):
        s = self.storage
        if self.dynamic is not None:
            kind, index, dim, index_stride = self.dynamic
            pairs = ", ".join(f"[{stride}, {count}]" for stride, count in self.pattern)
            if kind == "tensor":  # .indirect(): LANGUAGE.md 2.3
                return f"{s.name}.ap(pattern=[{pairs}], offset={self.offset}, indirect={_render(index)})"
            given = "" if index_stride is None else f", index_stride={index_stride}"
            index = index.name if index.__class__ is not NkiTensor else _render(index)  # a register: its name
            return f"{s.name}.ap(pattern=[{pairs}], offset={self.offset}, {kind}_offset={index}, " \
                   f"indirect_dim={dim}{given})"
        # What follows the name depends on the view and the declared shape
        # only: views of the same place in tensors of the same shape share it.
        declared = s.whole_pattern or _whole(s)
        key = (self.pattern, self.offset, declared, s.on_chip)
        suffix = _SUFFIXES.get(key)
        if suffix is None:
            if len(_SUFFIXES) > 65536:
                _SUFFIXES.clear()
            suffix = _SUFFIXES[key] = _suffix(self.pattern, self.offset, declared, s.on_chip)
        return s.name + suffix

    # --- arithmetic: nki.language's element-wise calls (below) -----------------
    def __add__(self, other): return _binary("add", self, other)
    def __radd__(self, other): return _binary("add", other, self)
    def __sub__(self, other): return _binary("subtract", self, other)
    def __rsub__(self, other): return _binary("subtract", other, self)
    def __mul__(self, other): return _binary("multiply", self, other)
    def __rmul__(self, other): return _binary("multiply", other, self)
    def __truediv__(self, other): return divide(self, other)
    def __rtruediv__(self, other): return divide(other, self)
    def __pow__(self, other): return _binary("power", self, other)
    def __neg__(self): return negative(self)

    # Python operators nisa.nki does not lower: a nisa.Error at the kernel's
    # line rather than Python's TypeError.
    def _refuse(what, hint):
        def refuse(self, *args):
            raise misuse(f"{what} on a tensor is not modeled: {hint}")
        return refuse

    __lt__ = _refuse("'<'", "use nl.less (or nl.greater)")
    __le__ = _refuse("'<='", "use nl.less_equal (or nl.greater_equal)")
    __gt__ = _refuse("'>'", "use nl.greater (or nl.less)")
    __ge__ = _refuse("'>='", "use nl.greater_equal (or nl.less_equal)")
    __matmul__ = __rmatmul__ = _refuse("'@'", "use nisa.nc_matmul")
    __iter__ = _refuse("iterating", "loop over nl.affine_range(n) and index the tensor")
    __float__ = __int__ = __index__ = _refuse("a Python number", "a tile's values are not known while the kernel "
                                             "is recorded (NKI traces, it does not compute)")
    del _refuse



# Views and operators raise nisa.Error at the kernel's line on bad arguments
# (a string for a shape, a wrong keyword), whatever Python would have raised.
# nisa.nki's own code calls the methods unwrapped (_RAW): one wrapper per
# kernel call.
_RAW = {"__getitem__": NkiTensor.__getitem__}  # checks its own errors
for _name, _method in list(vars(NkiTensor).items()):
    if inspect.isfunction(_method) and (not _name.startswith("_") or _name in (
            "__setitem__", "__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__",
            "__truediv__", "__rtruediv__", "__pow__", "__neg__")):
        _RAW[_name] = _method
        setattr(NkiTensor, _name, checked(_method, f"tensor.{_name.strip('_')}"))
del _name, _method
_render = _RAW["render"]

_SUFFIXES = {}  # (pattern, offset, whole pattern, on chip) -> what render() writes after the name


def _suffix(pattern, offset, declared, on_chip):
    """A view's operand after the tensor's name: slices where they say the
    same ("[0:128, 512:1024]", "" for the whole tensor), else an access
    pattern (".ap(pattern=[[512, 128], [1, 64]], offset=K)"). Which slices
    is the assembler's rule (_nisa.view_slices), which also makes a view
    handed over without text (nisa.nki._assemble) the operand this text
    reads as."""
    shape = tuple([size for _, size in declared])
    slices = _nisa.view_slices(shape, on_chip, offset, pattern)
    if slices is not None:
        if all(start == 0 and step == 1 and count == size for (start, count, step), size in zip(slices, shape)):
            return ""
        parts = [str(start) if count == 1 else f"{start}:{start + (count - 1) * step + 1}" + (f":{step}" if step != 1 else "")
                 for start, count, step in slices]
        return f"[{', '.join(parts)}]"
    pairs = ", ".join(f"[{stride}, {count}]" for stride, count in pattern)
    return f".ap(pattern=[{pairs}], offset={offset})"


def _indirect_operand(rec, view, kind, dim):
    """(indirect_dim, index_stride) of the .nasm operand for a runtime index
    on dimension `dim` of `view`. NKI 0.6 `.ap`: indirect_dim is a dimension
    of the view's shape, and the index moves by that dimension's stride in
    elements of the storage (a view's pattern holds exactly those strides,
    for slices, reshapes and permutes alike). The .nasm operand names a
    dimension of the declared tensor, whose stride is the product of the
    sizes after it (LANGUAGE.md 2.3): the declared dimension with the view
    dimension's stride when there is one (index_stride None), else dimension
    0 and index_stride=stride (a reshape such as x.reshape((B*S, D)) of an x
    of shape (B, S, D), or a 1-d reshape)."""
    if not _is_int(dim) or not 0 <= dim < len(view.pattern):
        raise rec.error(f"indirect_dim={dim!r}: not a dimension of the view (shape {view.shape})")
    dim = int(dim)
    if kind == "vector" and dim != 0:
        raise rec.error(f"indirect_dim={dim}: vector_offset works on dimension 0 only (NKI 0.6)")
    stride = view.pattern[dim][0]
    if stride < 1:
        raise rec.error(f"indirect_dim={dim}: the view's dimension {dim} has stride {stride} (a broadcast or reversed "
                        "dimension); an index on it moves by no positive number of elements, which is not modeled")
    declared = view.storage.shape
    suffix = [1] * len(declared)
    for d in range(len(declared) - 2, -1, -1):
        suffix[d] = suffix[d + 1] * declared[d + 1]
    # a .nasm vector_offset works on the declared tensor's dimension 0 only
    candidates = [0] if kind == "vector" else ([dim] if dim < len(declared) else []) + list(range(len(declared)))
    for d in candidates:
        if suffix[d] == stride:
            return d, None
    return 0, stride


def _slice_text(k):
    text = f"{'' if k.start is None else k.start}:{'' if k.stop is None else k.stop}"
    return text + (f":{k.step}" if k.step not in (None, 1) else "")


def _infer_shape(rec, shape, total):
    dims = shape if isinstance(shape, (tuple, list)) else (shape,)
    if not all(_is_int(d) for d in dims):
        raise rec.error(f"shape {shape!r}: expected integers")
    shape = [int(d) for d in dims]
    if shape.count(-1) > 1:
        raise rec.error(f"shape {tuple(shape)}: at most one -1")
    known = 1
    for d in shape:
        if d != -1:
            known *= d
    if -1 in shape:
        if known == 0 or total % known:
            raise rec.error(f"cannot reshape {total} elements into {tuple(shape)}")
        shape[shape.index(-1)] = total // known
    product = 1
    for d in shape:
        product *= d
    if product != total or any(d < 1 for d in shape):
        raise rec.error(f"cannot reshape {total} elements into {tuple(shape)}")
    return tuple(shape)


# --- what tensors' operators record -------------------------------------------
# `t[...] = value` and the arithmetic operators are nki.language's assign,
# fill and element-wise calls (language.py makes them public): they live here,
# with the class whose operators call them, and language imports them.
# The instructions these record: mnemonic and parameter names (_record.Form).
_ACTIVATION = _record.form('activation', ('dst', 'op', 'data'))
_DMA_COPY = _record.form('dma_copy', ('dst', 'src'))
_MEMSET = _record.form('memset', ('dst', 'value'))
_TENSOR_SCALAR = _record.form('tensor_scalar', ('dst', 'data', 'op0', 'operand0'))
_TENSOR_SCALAR_REVERSE = _record.form('tensor_scalar', ('dst', 'data', 'op0', 'operand0', 'reverse0'))
_TENSOR_TENSOR = _record.form('tensor_tensor', ('dst', 'data1', 'data2', 'op'))
_TENSOR_COPY = _record.form('tensor_copy', ('dst', 'src'))
_RECIPROCAL = _record.form('reciprocal', ('dst', 'data'))
_STREAM_SHUFFLE = _record.form('nc_stream_shuffle', ('dst', 'src', 'shuffle_mask'))

# The bitvec operators (docs/SEMANTICS.md S2.5): their scalar operand is an
# int32 bit pattern, not a float32.
_BITVEC = frozenset(("bitwise_and", "bitwise_or", "bitwise_xor", "invert", "left_shift", "right_shift"))


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
    if type(shape) is tuple and all(type(d) is int for d in shape):
        return shape  # the common case, without the numbers.Integral ABC checks
    dims = (shape,) if isinstance(shape, numbers.Integral) else shape
    if not isinstance(dims, (tuple, list)) or not all(isinstance(d, numbers.Integral) for d in dims):
        raise recording().error(f"shape {shape!r}: expected a tuple of integers")
    return tuple(int(d) for d in dims)


def _int_dims(shape):
    for d in shape:
        if d.__class__ is not int:
            return False
    return True


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
    storage = rec.new_storage("sbuf", dtype, shape, hint or "sb_")
    storage.fresh_result = len(rec.instructions)
    return NkiTensor(storage)


def assign(target, value):
    """`target[...] = value`. A value just returned by one instruction is
    written there by that instruction directly (no copy), as NKI does."""
    rec = _state.recording or recording()
    s = value.storage
    last = len(rec.instructions) - 1
    if (s.fresh_result == last and not s.aliased and _RAW["is_whole"](value) and target.storage.on_chip and
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
    """dst = src: on chip a tensor_copy (bits exactly for one dtype, else
    through float32, NKI 0.6's tensor_copy; an activation copy would round
    integers above 2^24), else a dma_copy."""
    rec = _state.recording or recording()
    if dst.storage.on_chip and src.storage.on_chip:
        rec.put(_TENSOR_COPY, (dst, src))
    else:
        rec.put(_DMA_COPY, (dst, src))


_ZERO_MASK = [0] * 32  # every partition of a quadrant takes partition 0 of the source


def _broadcast_partitions(x, partitions):
    """A new SBUF tile holding x's one partition on each of `partitions`
    partitions, bits exactly: an nc_stream_shuffle with every mask entry 0 per
    quadrant of 32 partitions, as the NKI Library's stream_shuffle_broadcast
    does ("broadcasts a single partition across the partition dimension using
    hardware shuffle"). A compute engine reads a lone partition only at a
    multiple of 32 (S1.5): one elsewhere is first copied to partition 0 of a
    new tile by DMA from SBUF; in PSUM (no DMA source), the shuffle reads its
    quadrant of 32 partitions and the mask names it there."""
    rec = _state.recording or recording()
    storage = x.storage
    per_partition = 1
    for d in storage.shape[1:]:
        per_partition *= d
    first = x.offset // per_partition
    mask = _ZERO_MASK
    if first % 32 and storage.buffer == "sbuf":
        staged = _result(x._shape, storage.dtype, "broadcast")
        rec.put(_DMA_COPY, (staged, x))
        x = staged
    elif first % 32:
        base = first - first % 32
        count = min(32, storage.shape[0] - base)
        storage.aliased = True
        x = _new(storage, x.offset - (first - base) * per_partition, ((per_partition, count),) + x.pattern[1:],
                 (count,) + x._shape[1:])
        mask = [first - base] * 32
    out = _result((partitions,) + x._shape[1:], storage.dtype, "broadcast")
    for start in range(0, partitions, 32):
        quadrant = _RAW["__getitem__"](out, slice(start, min(start + 32, partitions)))
        rec.put(_STREAM_SHUFFLE, (quadrant, x, mask))
    return out


def _promote(a, b):
    if a == b:
        return a
    if _dtypes.is_float(a) or _dtypes.is_float(b):
        return "float32"
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
        shape.append(max(a, b))
    shape = tuple(shape)
    broadcast = _RAW["broadcast_to"]
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
    value = int(scalar) if op in _BITVEC and isinstance(scalar, numbers.Integral) else float(scalar)
    rec.put(_TENSOR_SCALAR_REVERSE, (out, tile, op, value, not xt))
    return out


def divide(x, y, dtype=None):
    """x / y. nisa's ALU has no divide (isa-spec's alu operators): a number
    divisor becomes a multiply by its reciprocal, a tile divisor the Vector
    Engine's `reciprocal` (1/y in float32, IEEE, any magnitude: the
    activation table's reciprocal is valid on +-[2^-42, 2^42] only, S5) then
    a multiply. Two roundings: may differ from x / y in the last bit."""
    rec = _state.recording or recording()
    if isinstance(y, numbers.Number):
        return _binary("multiply", x, 1.0 / float(y), dtype)
    if not isinstance(y, NkiTensor) or not y.storage.on_chip:
        raise rec.error("nl.divide: the divisor must be an SBUF or PSUM tile or a number")
    inverse = _result(y._shape, "float32", "reciprocal")
    rec.put(_RECIPROCAL, (inverse, y))
    return _binary("multiply", x, inverse, dtype if dtype is not None else
                   (x.dtype if isinstance(x, NkiTensor) else y.dtype))


def _unary(function, x, dtype=None):
    rec = _state.recording or recording()
    if not isinstance(x, NkiTensor) or not x.storage.on_chip:
        raise rec.error(f"nl.{function} takes an SBUF or PSUM tile")
    out = _result(x._shape, _dtype(dtype) if dtype is not None else x.storage.dtype, function)
    rec.put(_ACTIVATION, (out, function, x))
    return out


def negative(x, dtype=None):
    return _binary("multiply", x, -1.0, dtype)
