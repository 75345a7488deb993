"""nki.isa as nisa records it: one function per instruction nisa models, with
NKI 0.6's parameter names, order and defaults (`nki/api/nki/isa/__init__.py`),
each recording one .nasm instruction that spells out every parameter
(LANGUAGE.md 4). The destination is `dst=` (NKI 0.6); the older style that
leaves `dst` out and takes the returned tile (`t[...] = nisa.activation(...)`)
works too. The instructions NKI has and nisa does not model yet exist as
functions that raise nisa.Error at the kernel's line when called.
"""
import inspect
import numbers
from enum import Enum

from . import language as nl
from ._record import recording
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

# NKI 0.6 instructions nisa does not model yet (isa-spec/isa.json
# "nki_instructions_not_modeled").
NOT_MODELED = ["tensor_copy", "nc_matmul", "nc_matmul_mx", "nc_transpose", "tensor_partition_reduce",
               "tensor_scalar_cumulative", "activation_reduce", "affine_select", "bn_stats", "bn_aggr", "tensor_tensor_scan", "exponential", "reciprocal", "max8", "sequence_bounds",
               "scalar_tensor_tensor", "tensor_scalar_reduce", "core_barrier", "dma_compute", "quantize_mx", "sendrecv",
               "register_alloc", "register_move", "register_load", "register_store", "nc_find_index8",
               "nc_match_replace8", "topk"]

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
    if isinstance(value, NkiTensor) or isinstance(value, bool):
        return value
    if key in ("pattern", "axis", "axes", "shuffle_mask"):
        if key == "axis" and isinstance(value, numbers.Integral):
            return [int(value)]
        return [list(v) if isinstance(v, (list, tuple)) else v for v in value]
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

    def instruction(*args, **kwargs):
        rec = recording()
        kwargs.pop("name", None)
        dtype = kwargs.pop("dtype", None)  # the older return-value style's result dtype
        if kwargs.pop("mask", None) is not None:
            raise rec.error(f"nisa.{mnemonic}(mask=...): masks are not part of NKI 0.6; slice the tiles instead")
        if len(args) > len(names):
            raise rec.error(f"nisa.{mnemonic} takes at most {len(names)} positional arguments ({', '.join(names)})")
        bound = dict(zip(names, args))
        for key, value in kwargs.items():
            if key not in names:
                raise rec.error(f"nisa.{mnemonic} has no parameter '{key}'; it takes {', '.join(names + ['name'])}")
            if key in bound:
                raise rec.error(f"nisa.{mnemonic}: '{key}' given twice")
            bound[key] = value
        for key, default in params:
            if key not in bound:
                if default is _REQUIRED:
                    raise rec.error(f"nisa.{mnemonic} needs '{key}'")
                bound[key] = default
        returned = None
        if "dst" in bound and bound["dst"] is None:
            returned = bound["dst"] = _result_for(rec, mnemonic, like, bound, dtype)
        record = [(key, _value(key, bound[key])) for key in names
                  if bound[key] is not None and key not in unrecorded]
        rec.emit(mnemonic, record, writes)
        return returned if returned is not None else bound.get("dst")

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
for _name in NOT_MODELED:
    globals()[_name] = _make_not_modeled(_name)
del _name
