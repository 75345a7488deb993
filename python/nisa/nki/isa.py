"""nki.isa as nisa records it: one function per instruction nisa models, with
NKI 0.6's parameter names, order and defaults (`nki/api/nki/isa/__init__.py`):
the spec's (isa-spec/isa.json), but for the few OVERRIDES below,
each recording one .nasm instruction that spells out every parameter
(LANGUAGE.md 4). The destination is `dst=` (NKI 0.6); the older style that
leaves `dst` out and takes the returned tile (`t[...] = nisa.activation(...)`)
works too. The instructions NKI has and nisa does not model yet exist as
functions that raise nisa.Error at the kernel's line when called.
"""
import inspect
import numbers
import types
from enum import Enum, IntEnum

import numpy as np

from . import language as nl
from .. import Error
from . import _dtypes, _record, _registers, _spec
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


class nc_version(IntEnum):
    # NKI documents an Enum; kernels compare versions (nki-library:
    # `get_nc_version() <= nc_version.gen2`, `get_nc_version() >= 3`), so the
    # members are ordered by their number and compare with ints.
    __str__ = Enum.__str__  # "nc_version.gen3", as NKI's Enum prints
    gen2 = 2
    gen3 = 3
    gen4 = 4


class dma_engine(Enum):
    # NKI 0.6: which DMA engine moves a sendrecv's data (the spec's enum dma_engine).
    dma = 1
    gpsimd_dma = 2


# NKI 0.6's older spellings of the engines (deprecated there for engine.X).
tensor_engine, vector_engine, scalar_engine = engine.tensor, engine.vector, engine.scalar
gpsimd_engine, unknown_engine = engine.gpsimd, engine.unknown

# `nki.isa.constants`: the enum classes again, as nki-library imports them
# (`from nki.isa.constants import oob_mode, dge_mode`, `nisa.constants.dge_mode.hwdge`).
# nisa.nki.install() registers it as the module nki.isa.constants.
constants = types.ModuleType("nki.isa.constants", "The nki.isa enum classes (engine, dge_mode, oob_mode, ...).")
for _enum in (engine, reduce_cmd, dge_mode, oob_mode, matmul_perf_mode, nc_version, dma_engine):
    setattr(constants, _enum.__name__, _enum)
del _enum

# Enum parameters NKI also takes as the enum's integer value (nki-library
# passes `dge_mode=3` for dge_mode.none): parameter -> its enum class. The
# spec's reduce_cmd_load is NKI's reduce_cmd with load_reduce.
_NUMBERED_ENUMS = {"engine": engine, "reduce_cmd": reduce_cmd, "dge_mode": dge_mode, "oob_mode": oob_mode,
                   "dma_engine": dma_engine}
_BY_NUMBER = object()  # _make_instruction's mark of the _NUMBERED_ENUMS parameters


def _numbered_enum(key, value):
    """The .nasm name of enum parameter `key` given as its integer value."""
    enum = _NUMBERED_ENUMS[key]
    try:
        return enum(int(value)).name
    except ValueError:
        values = ", ".join(f"{e.value} ({e.name})" for e in enum)
        raise recording().error(f"{key}={int(value)} is not a {enum.__name__} value; NKI's are {values}") from None


def get_nc_version():
    return nc_version(_spec.ARCHS[recording().arch]["version"])  # the NeuronCore version of the arch


_REQUIRED = _spec.REQUIRED

# Every nki.isa function's parameters, their order and defaults, what it
# writes and the shape of the tile it returns in the older style that leaves
# dst out come from the spec (isa-spec/isa.json: the .nasm instruction's
# operands and constraints, _spec.parameters and _spec.result_rule), which
# keeps NKI 0.6's names (LANGUAGE.md 2.4). NKI 0.6's signatures
# (`nki/api/nki/isa/__init__.py`) differ from the spec's only where written
# here, each with why (tests/python/test_nki_signatures.py holds each
# function to the spec plus these, and each of these to a difference):
#   order     NKI's positional order, where it is not the spec's
#   defaults  NKI's default where it is not the spec's (_REQUIRED: NKI requires it)
#   drop      spec operands NKI 0.6 does not have
#   add       NKI-only parameters (name, default), after the spec's: accepted
#             and not recorded, because they cannot change the result
# Every function also takes name= (NKI's scheduling label, keyword only, not
# recorded); mask= (not NKI 0.6) and dtype= (the older style's result dtype)
# are taken by every call too (_make_instruction).
OVERRIDES = {
    "memset": dict(add=[("engine", "unknown")],
                   why="NKI 0.6 memset takes engine=; the .nasm memset has none (which engine fills a tile does not "
                       "change its values)"),
    "tensor_tensor": dict(add=[("engine", "unknown")],
                          why="NKI 0.6 tensor_tensor takes engine=; the .nasm instruction has none (vector and gpsimd "
                              "compute the same values)"),
    "tensor_scalar": dict(defaults={"op1": None}, add=[("engine", "unknown")],
                          why="NKI 0.6 writes 'no second operation' as op1=None (recorded as no op1: the spec's "
                              "default, bypass), and takes engine= as tensor_tensor does"),
    "iota": dict(drop=("base", "partition_step", "free_step"),
                 defaults={"pattern": _REQUIRED, "offset": 0, "channel_multiplier": 0},
                 why="NKI 0.6's iota(dst, pattern, offset=0, channel_multiplier=0); base, partition_step and "
                     "free_step are the .nasm iota's other form, not NKI's, so the spec has every one optional"),
    "range_select": dict(defaults={"reduce_cmd": "reset_reduce"},
                         why="NKI 0.6's default reduce_cmd is reset_reduce; the .nasm instruction keeps the earlier "
                             "idle (docs/SEMANTICS.md N2). The recording writes the value out, so the .nasm "
                             "default never applies"),
    "tensor_reduce": dict(order=("dst", "op", "data", "axis", "negate", "keepdims"), defaults={"axis": _REQUIRED},
                          why="NKI 0.6's tensor_reduce(dst, op, data, axis, negate=False, keepdims=False): op first "
                              "and axis required; the .nasm operands are data, op, negate, axis, with axis optional"),
}
# Spec instructions that are not nki.isa functions, with why.
ABSENT = {"device_print": "NKI 0.6 has it as nki.language.device_print (nisa.nki.language records it), not in nki.isa",
          "register_op": "NKI 0.7's NkiScalar arithmetic (s * 4 + 1), which _registers.NkiScalar records; not an "
                         "nki.isa call",
          "fori_loop": "nki.language.fori_loop and dynamic_range (_registers.py records it), not in nki.isa",
          "while_loop": "nki.language.while_loop (_registers.py records it), not in nki.isa",
          "end_loop": "the end of nki.language's runtime loops (_registers.py records it), not in nki.isa"}


def _nki_parameters(mnemonic):
    """[(name, default)] of nki.isa.<mnemonic>: the spec's with OVERRIDES
    applied, and the NKI-only parameters that are not recorded."""
    override = OVERRIDES.get(mnemonic, {})
    params = [(p, d) for p, d in _spec.parameters(mnemonic) if p not in override.get("drop", ())]
    defaults = override.get("defaults", {})
    params = [(p, defaults.get(p, d)) for p, d in params]
    if "order" in override:
        by_name = dict(params)
        params = [(p, by_name[p]) for p in override["order"]]
    added = list(override.get("add", ()))
    return params + added, tuple(p for p, _ in added)


def _result_dtype(dtypes):
    """The dtype of the older style's result where the spec allows dst
    several (_spec.result_rule's "columns"): float32 where any float is
    allowed, else the widest allowed (nc_find_index8: uint32, as NKI)."""
    if "any" in dtypes or "float" in dtypes:
        return "float32"
    widest = max(dtypes, key=lambda d: _spec.DTYPES[d][1])
    return _dtypes.canonical(widest)


def _signature(mnemonic):
    """(parameters in NKI 0.6 order with defaults, the rule giving the
    older style's result (None: dst= needed), the parameters written, the
    NKI parameters accepted and not recorded)."""
    params, unrecorded = _nki_parameters(mnemonic)
    rule = _spec.result_rule(mnemonic)
    if rule is not None and rule[0] == "columns":
        rule = rule[:3] + (_result_dtype(rule[3]),)
    return params, rule, _spec.written(mnemonic), unrecorded


SIGNATURES = {name: _signature(name) for name in _spec.INSTRUCTIONS if name not in ABSENT}

# The calls on registers (NKI 0.6's register_*, NKI 0.7's scalar_load and
# scalar_store) are _registers.py's (set below), which declares the
# registers they make and records their instructions.
# NKI 0.6 instructions nisa does not model yet: the spec's
# "nki_instructions_not_modeled" (isa-spec/isa.json) but those.
REGISTER_CALLS = ("register_alloc", "register_move", "register_load", "register_store", "scalar_load", "scalar_store")
NOT_MODELED = [name for name in _spec.NOT_MODELED if name not in REGISTER_CALLS]

# List-valued parameters (`pattern`, `tile_position`, `shuffle_mask`, ...).
_LIST_KEYS = _spec.LIST_KEYS
_TENSOR_LIST_KEYS = _spec.TENSOR_LIST_KEYS
# The keys whose values _value reshapes rather than takes as they are.
_SHAPED_KEYS = _LIST_KEYS | _TENSOR_LIST_KEYS | {"tile_position", "tile_size"}

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


_FUNCTION, _UFUNC = type(enum_value), type(np.add)
_OPERATOR_NAMES = {}  # operator function -> its enum value's name (enum_value)


def _value(key, value):
    kind = type(value)
    if kind is NkiTensor or kind is bool:
        return value
    if key in _NUMBERED_ENUMS and isinstance(value, numbers.Integral):
        return _numbered_enum(key, value)
    if key not in _SHAPED_KEYS:  # the common cases first, without ABC checks
        if kind is int or kind is float or kind is str:
            return value
        if isinstance(value, Enum):
            return value.name
        if kind is _FUNCTION or kind is _UFUNC:  # an operator (nl.add, np.add): its name, worked out once
            name = _OPERATOR_NAMES.get(value)
            if name is None:
                name = _OPERATOR_NAMES[value] = enum_value(value)
            return name
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


# dma_transpose's permutation when axes= is left out, by src's rank (docs/SEMANTICS.md S11.1).
_DEFAULT_AXES = {2: (1, 0), 3: (2, 1, 0), 4: (3, 1, 2, 0)}


def _result_for(rec, mnemonic, rule, bound, dtype):
    """The tile the older style returns, shaped by the spec's rule for dst
    (_spec.result_rule)."""
    kind = rule[0] if rule is not None else None
    source = bound.get(rule[1]) if rule is not None else None
    if not isinstance(source, NkiTensor):
        raise rec.error(f"nisa.{mnemonic} needs dst= (the tile it writes)")
    if kind == "like":
        shape, base_dtype = source.shape, source.dtype
    elif kind == "columns":
        shape, base_dtype = (source.shape[0], rule[2]), nl._dtype(rule[3])
    elif kind == "reduced":
        axis, keepdims = bound[rule[2]], bound.get("keepdims", False)
        axes = [axis] if isinstance(axis, numbers.Integral) else list(axis)
        axes = [a + source.ndim if a < 0 else a for a in axes]
        kept = [1 if d in axes else n for d, n in enumerate(source.shape)] if keepdims else \
            [n for d, n in enumerate(source.shape) if d not in axes]
        shape, base_dtype = tuple(kept) if len(kept) > 1 else (kept[0], 1), source.dtype
    else:  # "transposed"
        axes = bound.get(rule[2])
        axes = _DEFAULT_AXES.get(source.ndim, (1, 0)) if axes is None else [int(a) for a in axes]
        shape, base_dtype = tuple(source.shape[a] for a in axes), source.dtype
    return nl._result(shape, nl._dtype(dtype) if dtype is not None else base_dtype, mnemonic)


def _make_instruction(mnemonic):
    params, rule, writes, unrecorded = SIGNATURES[mnemonic]
    names = [p for p, _ in params]
    known = frozenset(names)
    defaults = {p: d for p, d in params if d is not _REQUIRED}
    required = [p for p, d in params if d is _REQUIRED]
    # The recorded parameters in order, each with whether _value may reshape
    # it (True), or turn an enum's integer value into its name (_BY_NUMBER).
    recorded = [(p, _BY_NUMBER if p in _NUMBERED_ENUMS else p in _SHAPED_KEYS) for p in names if p not in unrecorded]
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

    plans = {}  # the names of a call's keywords, in order -> its plan (plan_for), or False

    def plan_for(given):
        """The recorded values of a call that gives the keywords `given` (all
        known, the required ones among them) and that are not None, each
        taken as it is or, for an operator or an enum, as _value's name of
        it: (the Form, a list of the values with each given one as None,
        [(position, key, shaped)] of the given ones); False where the
        defaults need _value or the instruction the general path (matmul's
        accumulate, an older-style result)."""
        if matmul or "dst" not in given or not plain.issuperset(given) or any(k not in given for k in required):
            return False
        keys, template, positions = [], [], []
        for key, shaped in recorded:
            if key in given:
                positions.append((len(template), key, shaped))
                template.append(None)
            else:
                value = defaults[key]
                if value is None:
                    continue
                kind = value.__class__
                if shaped or not (kind is bool or kind is str or kind is int or kind is float):
                    return False
                template.append(value)
            keys.append(key)
        return form(mnemonic, tuple(keys)), template, positions

    def instruction(*args, **kwargs):
        # Python's errors from bad arguments raised as nisa.Error at the kernel's
        # line, as checked() does (one frame less: the most frequent call).
        try:
            rec = _state.recording or recording()
            if not args:  # the most common call: its plan, when every value it gives is taken as it is
                given = tuple(kwargs)
                plan = plans.get(given)
                if plan is None:
                    plan = plans[given] = plan_for(given)
                if plan:
                    found, values, positions = plan
                    values = values.copy()
                    for position, key, shaped in positions:  # the loop below, for the given values
                        value = kwargs[key]
                        kind = value.__class__
                        if not (kind is NkiTensor or kind is bool or
                                not shaped and (kind is str or kind is int or kind is float)):
                            if shaped or value is None:
                                break  # a value reshaped or left out: the general path
                            value = _value(key, value)
                        values[position] = value
                    else:
                        rec.put(found, tuple(values), writes)
                        return kwargs["dst"]
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
                returned = bound["dst"] = _result_for(rec, mnemonic, rule, bound, dtype)
            keys, values = [], []
            for key, shaped in recorded:
                value = bound[key]
                if value is None:
                    continue
                kind = value.__class__
                if not (kind is NkiTensor or kind is bool or
                        not shaped and (kind is str or kind is int or kind is float) or
                        kind is str and shaped is _BY_NUMBER):
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

VirtualRegister, NkiScalar = _registers.VirtualRegister, _registers.NkiScalar
for _name in REGISTER_CALLS:
    globals()[_name] = checked(getattr(_registers, _name), f"nisa.{_name}")
del _name
