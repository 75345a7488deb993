"""nki.isa as nisa records it: one function per instruction nisa models, with
NKI 0.6's parameter names, order and defaults (`nki/api/nki/isa/__init__.py`),
each recording one .nasm instruction that spells out every parameter
(LANGUAGE.md 4). The destination is `dst=` (NKI 0.6); the older style that
leaves `dst` out and takes the returned tile (`t[...] = nisa.activation(...)`)
works too. The instructions NKI has and nisa does not model yet exist as
functions that raise nisa.Error at the kernel's line when called.
"""
import inspect
import json
import numbers
from enum import Enum

from . import language as nl
from .. import Error
from . import _record
from ._record import _PYTHON_ERRORS, _state, checked, form, misuse, recording
from ._tensor import NkiTensor


class engine(Enum):
    unknown = 0
    tensor = 1
    scalar = 2
    gpsimd = 3
    dma = 4
    vector = 5
    sync = 6


class reduce_cmd(Enum):
    idle = 0
    reset = 1
    reduce = 2
    reset_reduce = 3
    load_reduce = 4


class dge_mode(Enum):
    unknown = 0
    swdge = 1
    hwdge = 2
    none = 3


class oob_mode(Enum):
    error = 0
    skip = 1


class matmul_perf_mode(Enum):
    none = "none"
    double_row = "double_row"


class nc_version(Enum):
    gen2 = 2
    gen3 = 3
    gen4 = 4


def get_nc_version():
    return {"trn1": nc_version.gen2, "inf2": nc_version.gen2, "trn2": nc_version.gen3,
            "trn3": nc_version.gen4}[recording().arch]


_REQUIRED = object()
FP32_MIN = -3.4028234663852886e38

# mnemonic -> (parameters in NKI 0.6 order with defaults, the parameter whose
# shape and dtype a returned result takes, the parameters written, the NKI
# parameters nisa accepts but does not record because they cannot change
# the result). `name` (a scheduling label) is accepted everywhere.
SIGNATURES = {
    "dma_copy": ([("dst", None), ("src", _REQUIRED), ("priority", None), ("oob_mode", "error"),
                  ("dge_mode", "unknown"), ("engine", "unknown")], "src", ("dst",), ()),
    "memset": ([("dst", None), ("value", _REQUIRED), ("engine", "unknown")], None, ("dst",), ("engine",)),
    "iota": ([("dst", None), ("pattern", _REQUIRED), ("offset", 0), ("channel_multiplier", 0)], None, ("dst",), ()),
    "nonzero_with_count": ([("dst", None), ("src", _REQUIRED), ("index_offset", 0), ("padding_val", -1)], None,
                           ("dst",), ()),
    "tensor_copy_predicated": ([("dst", None), ("src", _REQUIRED), ("predicate", _REQUIRED), ("reverse_pred", False)],
                               "src", ("dst",), ()),
    "select_reduce": ([("dst", None), ("predicate", _REQUIRED), ("on_true", _REQUIRED), ("on_false", _REQUIRED),
                       ("reduce_res", None), ("reduce_cmd", "idle"), ("reduce_op", "maximum"), ("reverse_pred", False)],
                      "on_true", ("dst", "reduce_res"), ()),
    "range_select": ([("dst", None), ("on_true_tile", _REQUIRED), ("comp_op0", _REQUIRED), ("comp_op1", _REQUIRED),
                      ("bound0", _REQUIRED), ("bound1", _REQUIRED), ("reduce_cmd", "reset_reduce"),
                      ("reduce_res", None), ("reduce_op", "maximum"), ("range_start", 0), ("on_false_value", FP32_MIN)],
                     "on_true_tile", ("dst", "reduce_res"), ()),
    "activation": ([("dst", None), ("op", _REQUIRED), ("data", _REQUIRED), ("bias", None), ("scale", 1.0),
                    ("reduce_op", None), ("reduce_res", None), ("reduce_cmd", "idle")], "data", ("dst", "reduce_res"), ()),
    "activate2": ([("dst", None), ("op", _REQUIRED), ("data", _REQUIRED), ("imm0", _REQUIRED), ("imm1", _REQUIRED),
                   ("op0", _REQUIRED), ("op1", _REQUIRED), ("relu_param", 0.0), ("reverse0", False), ("reverse1", False),
                   ("reduce_op", None), ("reduce_res", None), ("reduce_cmd", "idle")], "data", ("dst", "reduce_res"), ()),
    "tensor_scalar": ([("dst", None), ("data", _REQUIRED), ("op0", _REQUIRED), ("operand0", _REQUIRED),
                       ("reverse0", False), ("op1", None), ("operand1", None), ("reverse1", False),
                       ("engine", "unknown")], "data", ("dst",), ("engine",)),
    "tensor_tensor": ([("dst", None), ("data1", _REQUIRED), ("data2", _REQUIRED), ("op", _REQUIRED),
                       ("engine", "unknown")], "data1", ("dst",), ("engine",)),
    "tensor_reduce": ([("dst", None), ("op", _REQUIRED), ("data", _REQUIRED), ("axis", _REQUIRED), ("negate", False),
                       ("keepdims", False)], None, ("dst",), ()),
    "tensor_copy": ([("dst", None), ("src", _REQUIRED), ("engine", "unknown")], "src", ("dst",), ()),
    "nc_matmul": ([("dst", None), ("stationary", _REQUIRED), ("moving", _REQUIRED), ("is_stationary_onezero", False),
                   ("is_moving_onezero", False), ("is_transpose", False), ("accumulate", None), ("tile_position", None),
                   ("tile_size", None), ("perf_mode", "none")], None, ("dst",), ()),
    "nc_transpose": ([("dst", None), ("data", _REQUIRED), ("engine", "unknown")], None, ("dst",), ()),
    # issue 13: data movement (docs/SEMANTICS.md S11)
    "dma_transpose": ([("dst", None), ("src", _REQUIRED), ("axes", None), ("priority", None), ("dge_mode", "unknown"),
                       ("oob_mode", "error")], None, ("dst",), ()),
    "nc_stream_shuffle": ([("dst", None), ("src", _REQUIRED), ("shuffle_mask", _REQUIRED)], None, ("dst",), ()),
    "local_gather": ([("dst", None), ("src_buffer", _REQUIRED), ("index", _REQUIRED), ("num_elem_per_idx", 1),
                      ("num_valid_indices", None)], None, ("dst",), ()),
    "nc_n_gather": ([("dst", None), ("data", _REQUIRED), ("indices", _REQUIRED)], "indices", ("dst",), ()),
    # issue 13: random numbers (S11.5); set_rng_seed and rand_set_state write no tile
    "rng": ([("dst", None), ("engine", "vector")], None, ("dst",), ()),
    "rand2": ([("dst", None), ("min", _REQUIRED), ("max", _REQUIRED)], None, ("dst",), ()),
    "dropout": ([("dst", None), ("data", _REQUIRED), ("prob", _REQUIRED)], "data", ("dst",), ()),
    "set_rng_seed": ([("src_seeds", _REQUIRED)], None, (), ()),
    "rand_set_state": ([("src_seeds", _REQUIRED), ("engine", "gpsimd")], None, (), ()),
    "rand_get_state": ([("dst", None), ("engine", "gpsimd")], None, ("dst",), ()),
}
# Issue 13, statistics and selection (docs/SEMANTICS.md S4.30-S4.35).
SIGNATURES.update({
    "bn_stats": ([("dst", None), ("data", _REQUIRED)], None, ("dst",), ()),
    "bn_aggr": ([("dst", None), ("data", _REQUIRED)], None, ("dst",), ()),
    "max8": ([("dst", None), ("src", _REQUIRED)], None, ("dst",), ()),
    "nc_find_index8": ([("dst", None), ("data", _REQUIRED), ("vals", _REQUIRED)], None, ("dst",), ()),
    "nc_match_replace8": ([("dst", None), ("data", _REQUIRED), ("vals", _REQUIRED), ("imm", _REQUIRED),
                           ("dst_idx", None)], "data", ("dst", "dst_idx"), ()),
    "sequence_bounds": ([("dst", None), ("segment_ids", _REQUIRED)], None, ("dst",), ()),
    "topk": ([("val_dst", _REQUIRED), ("idx_dst", _REQUIRED), ("src", _REQUIRED), ("n", _REQUIRED)], None,
             ("val_dst", "idx_dst"), ()),
})
# The older return-value style's result of the instructions whose result is
# [P, k] whatever their input's shape: (the input giving P, k, default dtype).
RESULT_COLUMNS = {"bn_stats": ("data", 6, "float32"), "bn_aggr": ("data", 2, "float32"), "max8": ("src", 8, "float32"),
                  "nc_find_index8": ("data", 8, "uint32")}


# Issue 13, vecops batch (docs/SEMANTICS.md S4.20..): NKI 0.6's signatures.
VECOPS_SIGNATURES = {
    "tensor_tensor_scan": ([("dst", None), ("data0", _REQUIRED), ("data1", _REQUIRED), ("initial", _REQUIRED),
                            ("op0", _REQUIRED), ("op1", _REQUIRED), ("reverse0", False), ("reverse1", False)],
                           "data0", ("dst",), ()),
    "affine_select": ([("dst", None), ("pattern", _REQUIRED), ("channel_multiplier", _REQUIRED),
                       ("on_true_tile", _REQUIRED), ("on_false_value", _REQUIRED), ("cmp_op", "equal"), ("offset", 0)],
                      "on_true_tile", ("dst",), ()),
    "tensor_scalar_cumulative": ([("dst", None), ("src", _REQUIRED), ("op0", _REQUIRED), ("op1", _REQUIRED),
                                  ("imm0", _REQUIRED), ("imm1", None), ("reduce_cmd", "reset_reduce")],
                                 "src", ("dst",), ()),
    "scalar_tensor_tensor": ([("dst", None), ("data", _REQUIRED), ("op0", _REQUIRED), ("operand0", _REQUIRED),
                              ("op1", _REQUIRED), ("operand1", _REQUIRED), ("reverse0", False), ("reverse1", False)],
                             "data", ("dst",), ()),
    "tensor_scalar_reduce": ([("dst", None), ("data", _REQUIRED), ("op0", _REQUIRED), ("operand0", _REQUIRED),
                              ("reduce_op", _REQUIRED), ("reduce_res", None), ("reverse0", False),
                              ("reduce_cmd", "reset_reduce"), ("reduce_init", None), ("reduce_res_negate", False)],
                             "data", ("dst", "reduce_res"), ()),
    "activation_reduce": ([("dst", None), ("op", _REQUIRED), ("data", _REQUIRED), ("reduce_op", _REQUIRED),
                           ("reduce_res", _REQUIRED), ("bias", None), ("scale", 1.0)], "data", ("dst", "reduce_res"), ()),
    "exponential": ([("dst", None), ("src", _REQUIRED), ("max_value", 0.0), ("reduce_res", None), ("reduce_cmd", "idle"),
                     ("reduce_init", 0.0)], "src", ("dst", "reduce_res"), ()),
    "reciprocal": ([("dst", None), ("data", _REQUIRED)], "data", ("dst",), ()),
    "tensor_partition_reduce": ([("dst", None), ("op", _REQUIRED), ("data", _REQUIRED)], None, ("dst",), ()),
}
SIGNATURES.update(VECOPS_SIGNATURES)


def _spec():
    from .. import _nisa
    return json.loads(_nisa.spec_json())


_SPEC = _spec()
# Written operands of every instruction (the spec's timeline section).
_WRITTEN = set(_SPEC["cost"]["timeline"]["written_operands"])
# List-valued parameters (`pattern`, `tile_position`, `shuffle_mask`, ...).
_LIST_KEYS = {o["name"] for i in _SPEC["instructions"] for o in i["operands"] if o["kind"] == "list"}
_TENSOR_LIST_KEYS = {o["name"] for i in _SPEC["instructions"] for o in i["operands"] if o["kind"] == "tensor_list"}
# The keys whose values _value reshapes rather than takes as they are.
_SHAPED_KEYS = _LIST_KEYS | _TENSOR_LIST_KEYS | {"tile_position", "tile_size"}


def _signature_from_spec(entry):
    """An instruction without a hand-written entry above takes its NKI 0.6
    parameters, order and defaults from the ISA spec (every spec instruction
    keeps NKI's names and defaults, LANGUAGE.md 2.4). The older style without
    dst= needs the hand-written entries' result rule, so these take dst=."""
    params = []
    for o in entry["operands"]:
        if o.get("required"):
            default = None if o["name"] in _WRITTEN and o["kind"] == "tensor" else _REQUIRED
        else:
            default = o.get("default")
        params.append((o["name"], default))
    writes = tuple(o["name"] for o in entry["operands"] if o["name"] in _WRITTEN and o["kind"] == "tensor")
    return params, None, writes, ()


for _entry in _SPEC["instructions"]:
    if _entry["name"] not in SIGNATURES:
        SIGNATURES[_entry["name"]] = _signature_from_spec(_entry)

# NKI 0.6 instructions nisa does not model yet (isa-spec/isa.json
# "nki_instructions_not_modeled").
NOT_MODELED = list(_SPEC.get("nki_instructions_not_modeled", []))

_MATMULS = ("nc_matmul", "nc_matmul_mx")


_LANGUAGE_OPS = {nl.max: "maximum", nl.min: "minimum", nl.sum: "add", nl.prod: "multiply"}


def enum_value(value):
    """An `op`/enum argument as its .nasm name: nl.add, np.add, np.max,
    nisa.reduce_cmd.reset, "add" -> add, add, maximum, reset, add."""
    if isinstance(value, Enum):
        return value.name
    if isinstance(value, str):
        return value
    try:
        if value in nl.NUMPY_OPS:
            return nl.NUMPY_OPS[value]
        if value in _LANGUAGE_OPS:
            return _LANGUAGE_OPS[value]
    except TypeError:
        pass
    if callable(value) and getattr(value, "__module__", None) == nl.__name__:
        return value.__name__
    raise recording().error(f"{value!r} is not an operator, activation function or enum value nisa knows")


def _value(key, value):
    kind = type(value)
    if kind is NkiTensor or kind is bool:
        return value
    if key not in _SHAPED_KEYS:  # the common cases first, without ABC checks
        if kind is int or kind is float or kind is str:
            return value
        if isinstance(value, Enum):
            return value.name
    if isinstance(value, NkiTensor) or isinstance(value, bool):
        return value
    if key in ("tile_position", "tile_size") and len(value) == 0:  # NKI's default (): the whole array
        return None
    if key in _TENSOR_LIST_KEYS:  # dma_compute's srcs: a list of NkiTensor views, rendered [a, b]
        if not isinstance(value, (list, tuple)) or not all(isinstance(v, NkiTensor) for v in value):
            raise recording().error(f"'{key}' takes a list of tensors")
        return list(value)
    if key in _LIST_KEYS:
        if isinstance(value, numbers.Integral):  # axis=1 for axis=[1]
            return [int(value)]
        # .nasm lists hold integers: an integral float (dma_compute's scales=[1.0]) is written as one
        return [list(v) if isinstance(v, (list, tuple)) else int(v) if isinstance(v, float) and v.is_integer() else v
                for v in value]
    if isinstance(value, numbers.Number):
        return value
    if hasattr(value, "item") and callable(value.item):  # a NumPy scalar
        return value.item()
    return enum_value(value)


def _result_for(rec, mnemonic, like, bound, dtype):
    if mnemonic == "tensor_reduce":
        data, axis, keepdims = bound["data"], bound["axis"], bound["keepdims"]
        axes = [axis] if isinstance(axis, numbers.Integral) else list(axis)
        axes = [a + data.ndim if a < 0 else a for a in axes]
        kept = [1 if d in axes else n for d, n in enumerate(data.shape)] if keepdims else \
            [n for d, n in enumerate(data.shape) if d not in axes]
        shape, base_dtype = tuple(kept) if len(kept) > 1 else (kept[0], 1), data.dtype
    elif mnemonic in RESULT_COLUMNS and isinstance(bound.get(RESULT_COLUMNS[mnemonic][0]), NkiTensor):
        source, columns, default_dtype = RESULT_COLUMNS[mnemonic]
        shape, base_dtype = (bound[source].shape[0], columns), nl._dtype(default_dtype)
    elif mnemonic == "dma_transpose":  # S11.1: the permutation of src's rank
        src = bound["src"]
        axes = {2: (1, 0), 3: (2, 1, 0), 4: (3, 1, 2, 0)}.get(src.ndim, (1, 0))
        shape, base_dtype = tuple(src.shape[a] for a in axes), src.dtype
    elif like is not None and isinstance(bound.get(like), NkiTensor):
        shape, base_dtype = bound[like].shape, bound[like].dtype
    else:
        raise rec.error(f"nisa.{mnemonic} needs dst= (the tile it writes)")
    return nl._result(shape, nl._dtype(dtype) if dtype is not None else base_dtype, mnemonic)


def _make_instruction(mnemonic):
    params, like, writes, unrecorded = SIGNATURES[mnemonic]
    names = [p for p, _ in params]
    known = frozenset(names)
    defaults = {p: d for p, d in params if d is not _REQUIRED}
    required = [p for p, d in params if d is _REQUIRED]
    # The recorded parameters in order, each with whether _value may reshape it.
    recorded = [(p, p in _SHAPED_KEYS) for p in names if p not in unrecorded]
    matmul = mnemonic in _MATMULS
    writes = tuple(writes)
    forms = {}  # the recorded keys -> their Form
    plain = known - {"name", "dtype", "mask"}  # the keywords taken as they are

    def bind(rec, args, kwargs):
        """The parameters of a call with positional arguments, or name=,
        dtype=, mask= or an unknown keyword: ({name: value}, dtype)."""
        kwargs.pop("name", None)
        dtype = kwargs.pop("dtype", None)  # the older return-value style's result dtype
        if kwargs.pop("mask", None) is not None:
            raise rec.error(f"nisa.{mnemonic}(mask=...): masks are not part of NKI 0.6; slice the tiles instead")
        if len(args) > len(names):
            raise rec.error(f"nisa.{mnemonic} takes at most {len(names)} positional arguments ({', '.join(names)})")
        bound = dict(zip(names, args))
        for key, value in kwargs.items():
            if key not in known:
                raise rec.error(f"nisa.{mnemonic} has no parameter '{key}'; it takes {', '.join(names + ['name'])}")
            if key in bound:
                raise rec.error(f"nisa.{mnemonic}: '{key}' given twice")
            bound[key] = value
        for key in required:
            if key not in bound:
                raise rec.error(f"nisa.{mnemonic} needs '{key}'")
        full = defaults.copy()
        full.update(bound)
        return full, dtype

    def instruction(*args, **kwargs):
        # Python's errors from bad arguments raised as nisa.Error at the kernel's
        # line, as checked() does (one frame less: the most frequent call).
        try:
            rec = _state.recording or recording()
            if not args and plain.issuperset(kwargs):  # the common call: parameters by name, all known
                dtype = None
                bound = defaults.copy()
                bound.update(kwargs)
                for key in required:
                    if key not in kwargs:
                        raise rec.error(f"nisa.{mnemonic} needs '{key}'")
            else:
                bound, dtype = bind(rec, args, kwargs)
            if matmul and bound.get("accumulate") is None and isinstance(bound.get("dst"), NkiTensor):
                # NKI's accumulate=None, "first write overwrites, subsequent writes
                # accumulate", per allocated PSUM tile: written out, so that a tile
                # placed where an earlier one lived starts its own sum.
                storage = bound["dst"].storage
                bound["accumulate"] = storage.matmul_written
                storage.matmul_written = True
            returned = None
            if "dst" in bound and bound["dst"] is None:  # topk names its results val_dst and idx_dst
                returned = bound["dst"] = _result_for(rec, mnemonic, like, bound, dtype)
            keys, values = [], []
            for key, shaped in recorded:
                value = bound[key]
                if value is None:
                    continue
                kind = value.__class__
                if not (kind is NkiTensor or kind is bool or
                        not shaped and (kind is str or kind is int or kind is float)):
                    value = _value(key, value)
                    if value is None:
                        continue
                keys.append(key)
                values.append(value)
            keys = tuple(keys)
            found = forms.get(keys)
            if found is None:
                found = forms[keys] = form(mnemonic, keys)
            rec.put(found, tuple(values), writes)
            return returned if returned is not None else bound.get("dst")
        except _PYTHON_ERRORS as e:
            if isinstance(e, Error):  # already located (an AttributeError-like nisa.Error)
                raise
            raise misuse(f"nisa.{mnemonic}: {e}") from e

    instruction.__name__ = mnemonic
    instruction.__qualname__ = mnemonic
    instruction.__doc__ = f"nki.isa.{mnemonic} (NKI 0.6), recorded as the .nasm instruction {mnemonic}."
    instruction.__signature__ = inspect.Signature(
        [inspect.Parameter(p, inspect.Parameter.POSITIONAL_OR_KEYWORD,
                           default=inspect.Parameter.empty if d is _REQUIRED or p == "dst" else d) for p, d in params] +
        [inspect.Parameter("name", inspect.Parameter.KEYWORD_ONLY, default=None)])
    return instruction


def _make_not_modeled(name):
    def instruction(*args, **kwargs):
        raise recording().error(f"nisa.{name} is an NKI 0.6 instruction nisa does not model yet")
    instruction.__name__ = name
    return instruction


for _name in SIGNATURES:
    globals()[_name] = _make_instruction(_name)
_record._ENTRY_CODE = _make_instruction("dma_copy").__code__
for _name in NOT_MODELED:
    globals()[_name] = _make_not_modeled(_name)
get_nc_version = checked(get_nc_version, "nisa.get_nc_version")
del _name
