"""nki.isa's signatures against the ISA spec (issue 26): every function's
parameter names, order and defaults are isa-spec/isa.json's operands plus
the overrides nisa.nki.isa.OVERRIDES declares (NKI 0.6's differences, each
with a reason), every override is still a difference from the spec, and
every spec instruction is a function of nki.isa or listed in ABSENT with a
reason. The expected signatures are worked out here from the spec's file,
not by the package's code, so a spec change the Python side does not follow
fails."""
import inspect
import json
import os

import pytest

import nisa
import nisa.nki
from nisa.nki import isa

SOURCE = os.environ.get("NISA_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
with open(os.path.join(SOURCE, "isa-spec", "isa.json"), encoding="utf-8") as _f:
    SPEC = json.load(_f)
INSTRUCTIONS = {i["name"]: i for i in SPEC["instructions"]}
EMPTY = inspect.Parameter.empty
NUMBER_WORDS = {"fp32.min": -3.4028234663852886e38, "fp32.max": 3.4028234663852886e38}


def spec_parameters(name):
    """[(name, default)] from the spec: EMPTY for a required operand."""
    out = []
    for o in INSTRUCTIONS[name]["operands"]:
        default = EMPTY if o.get("required") else o.get("default")
        out.append((o["name"], NUMBER_WORDS.get(default, default) if isinstance(default, str) else default))
    return out


def expected_parameters(name):
    """The spec's parameters with the declared overrides applied, as
    inspect shows them (dst without a default, name= keyword only)."""
    override = isa.OVERRIDES.get(name, {})
    params = [(p, d) for p, d in spec_parameters(name) if p not in override.get("drop", ())]
    for p, d in override.get("defaults", {}).items():
        params = [(q, (EMPTY if d is isa._REQUIRED else d) if q == p else e) for q, e in params]
    if "order" in override:
        by_name = dict(params)
        params = [(p, by_name[p]) for p in override["order"]]
    params += list(override.get("add", ()))
    positional = [(p, inspect.Parameter.POSITIONAL_OR_KEYWORD, EMPTY if p == "dst" else d) for p, d in params]
    return positional + [("name", inspect.Parameter.KEYWORD_ONLY, None)]


def test_the_package_reads_the_spec_in_the_source_tree():
    # A stale build (its spec not the file's) would make the comparisons below meaningless.
    assert json.loads(nisa._nisa.spec_json()) == SPEC


@pytest.mark.parametrize("name", sorted(INSTRUCTIONS))
def test_every_spec_instruction_is_a_function_with_the_spec_signature(name):
    if name in isa.ABSENT:
        assert isa.ABSENT[name].strip(), f"{name}: ABSENT needs a reason"
        assert not callable(getattr(isa, name, None)), f"{name} is listed in ABSENT but is a function"
        return
    fn = getattr(isa, name, None)
    assert callable(fn), f"spec instruction {name} is neither nki.isa.{name} nor listed in isa.ABSENT"
    got = [(p.name, p.kind, p.default) for p in inspect.signature(fn).parameters.values()]
    want = expected_parameters(name)
    assert [g[0] for g in got] == [w[0] for w in want], f"{name}: parameter names or order"
    for g, w in zip(got, want):
        assert g == w, f"{name}: parameter {g[0]}: got {g[1:]}, the spec and OVERRIDES say {w[1:]}"


@pytest.mark.parametrize("name", sorted(isa.OVERRIDES))
def test_every_override_is_a_difference_from_the_spec_with_a_reason(name):
    assert name in INSTRUCTIONS, f"OVERRIDES[{name!r}]: no such spec instruction"
    override = isa.OVERRIDES[name]
    assert set(override) <= {"order", "defaults", "drop", "add", "why"}, sorted(override)
    assert override.get("why", "").strip(), f"OVERRIDES[{name!r}] needs a reason (why=)"
    assert set(override) - {"why"}, f"OVERRIDES[{name!r}] overrides nothing"
    spec = dict(spec_parameters(name))
    for p in override.get("drop", ()):
        assert p in spec, f"OVERRIDES[{name!r}] drops {p!r}, which the spec does not have"
    for p, d in override.get("defaults", {}).items():
        assert p in spec, f"OVERRIDES[{name!r}] sets the default of {p!r}, which the spec does not have"
        d = EMPTY if d is isa._REQUIRED else d
        assert not (d == spec[p] and type(d) is type(spec[p])), \
            f"OVERRIDES[{name!r}]: {p}'s default {d!r} is now the spec's: remove the override"
    kept = [p for p in spec if p not in override.get("drop", ())]
    if "order" in override:
        assert sorted(override["order"]) == sorted(kept), f"OVERRIDES[{name!r}]: order must name every parameter"
        assert list(override["order"]) != kept, f"OVERRIDES[{name!r}]: the order is now the spec's: remove it"
    for p, _ in override.get("add", ()):
        assert p not in spec, f"OVERRIDES[{name!r}] adds {p!r}, which the spec now has: remove the override"


def test_every_spec_instruction_nki_has_and_nisa_does_not_model_raises():
    for name in SPEC["nki_instructions_not_modeled"]:
        assert callable(getattr(isa, name))
        assert name not in INSTRUCTIONS
    assert sorted(isa.NOT_MODELED) == sorted(set(SPEC["nki_instructions_not_modeled"]) - set(isa.REGISTER_CALLS))


def test_the_overrides_are_few():
    # Most signatures are the spec's; an override is the exception (issue 26).
    assert len(isa.OVERRIDES) <= len(INSTRUCTIONS) // 4
