"""isa-spec/isa.json as the Python side reads it: the one reader of the spec
(`_nisa.spec_json()`, the spec the native module was built with) in the
nisa package. Everything else takes the spec's facts from here: nki.isa its
instructions' parameters, defaults and result shapes; the recorder the archs'
memory sizes and the words a tensor cannot be named; _dtypes the .nasm name
and size of each dtype.
"""
import json

from .. import _nisa

SPEC = json.loads(_nisa.spec_json())

# --- instructions --------------------------------------------------------------
INSTRUCTIONS = {i["name"]: i for i in SPEC["instructions"]}
# NKI 0.6 instructions nisa does not model yet ("nki_instructions_not_modeled").
NOT_MODELED = tuple(SPEC.get("nki_instructions_not_modeled", ()))
# Written operands of every instruction (the timeline section: dst, reduce_res, ...).
WRITTEN = frozenset(SPEC["cost"]["timeline"]["written_operands"])
# List-valued parameters (`pattern`, `tile_position`, `shuffle_mask`, ...) and lists of tensors (`srcs`).
LIST_KEYS = frozenset(o["name"] for i in SPEC["instructions"] for o in i["operands"] if o["kind"] == "list")
TENSOR_LIST_KEYS = frozenset(o["name"] for i in SPEC["instructions"] for o in i["operands"]
                             if o["kind"] == "tensor_list")

# A required operand without a default.
REQUIRED = object()
# Defaults the spec writes as .nasm words that Python spells as numbers.
_NUMBER_WORDS = {"fp32.min": -3.4028234663852886e38, "fp32.max": 3.4028234663852886e38}


def parameters(name):
    """The spec's operands of instruction `name` in its order, as
    [(name, default)]: REQUIRED for a required operand, except that the
    written tile `dst` defaults to None (the older style of NKI that leaves
    it out and takes the returned tile); None for an optional operand
    without a default (left out of the recorded instruction)."""
    params = []
    for o in INSTRUCTIONS[name]["operands"]:
        if o.get("required"):
            default = None if o["name"] == "dst" and o["kind"] == "tensor" else REQUIRED
        else:
            default = o.get("default")
            if isinstance(default, str):
                default = _NUMBER_WORDS.get(default, default)
        params.append((o["name"], default))
    return params


def written(name):
    """The tensor operands instruction `name` writes, in its order."""
    return tuple(o["name"] for o in INSTRUCTIONS[name]["operands"] if o["name"] in WRITTEN and o["kind"] == "tensor")


def result_rule(name):
    """What the spec's constraints say of `dst`'s shape, for the older style
    that leaves dst out: ("like", X) for dst shaped as operand X (its first
    same_shape constraint with dst); ("columns", X, k, dtypes) for dst of
    X's partitions and k elements each (same_partitions and an exact
    element_count; dtypes those the spec allows dst); ("reduced", data, axes)
    and ("transposed", src, axes) for the reductions and transposes by an
    axes operand; None where the shape is not one of these."""
    constraints = INSTRUCTIONS[name]["constraints"]
    operands = {o["name"]: o for o in INSTRUCTIONS[name]["operands"]}
    if "dst" not in operands:
        return None
    partitions_of, columns = None, None
    for c in constraints:
        check, names = c["check"], c.get("operands", ())
        if check == "same_shape" and "dst" in names:
            return "like", [n for n in names if n != "dst"][0]
        if check == "reduced_by_axes" and names[0] == "dst":
            return "reduced", names[1], c["axes"]
        if check == "transposed_by_axes" and names[0] == "dst":
            return "transposed", names[1], c["axes"]
        if check == "same_partitions" and names[0] == "dst":
            partitions_of = names[1]
        if check == "element_count" and c.get("operand") == "dst" and c.get("min") == c.get("max"):
            columns = c["min"]
    if partitions_of is not None and columns is not None:
        return "columns", partitions_of, columns, tuple(operands["dst"].get("dtypes", ("any",)))
    return None


# --- machine ---------------------------------------------------------------------
ARCHS = {a["name"]: a for a in SPEC["archs"]}
# The NKI versions whose instruction forms the spec describes (`.nki`, LANGUAGE.md 2.1).
NKI_VERSIONS = tuple(SPEC["nki_versions"])
# NKI's platform targets (@nki.jit(platform_target=...), NEURON_PLATFORM_TARGET_OVERRIDE) -> arch.
PLATFORMS = {"trn1": "trn1", "inf2": "inf2", "gen2": "trn1", "trn2": "trn2", "gen3": "trn2", "trn3": "trn3",
             "gen4": "trn3"}
PARTITIONS = SPEC["partitions"]
SBUF_PARTITION_BYTES = {name: a["sbuf_partition_bytes"] for name, a in ARCHS.items()}
PSUM_PARTITION_BYTES = {name: a["psum_partition_bytes"] for name, a in ARCHS.items()}

# --- dtypes and names ------------------------------------------------------------
# Every dtype's .nasm name and alias -> (.nasm name, bytes per element, class).
DTYPES = {}
for _d in SPEC["dtypes"]:
    for _alias in [_d["name"]] + _d.get("aliases", []):
        DTYPES[_alias] = (_d["name"], _d["size"], _d["class"])
del _d, _alias

# Every enumeration value's name and alias (compare ops, ALU ops, activation
# functions, engines, ...).
ENUM_WORDS = frozenset(word for values in SPEC["enums"].values() for v in values
                       for word in [v["name"]] + v.get("aliases", []))
