#!/usr/bin/env python3
"""Every instruction of isa-spec/isa.json has all of its pieces (issue 26).

For each instruction NAME of the spec this fails, naming the instruction and
the missing piece, when one of these is absent:
  kernel      interp/instructions/NAME.cpp defining `NAME_semantics` (the
              instruction table, interp/instructions/table.cpp, is generated
              from the spec, so a missing definition also fails the link)
  reference   tests/reference/instructions/NAME.py with RULE (its
              docs/SEMANTICS.md rule) and NAME(m, o), its semantics; found by
              the model's registry (tests/reference/instructions/__init__.py)
  emitter     that module's random BLOCKS (or EMITTED_BY: another block emits
              it), and NAME in the 60 random programs of the lockstep's mix
              (seed 11) that tests/dis/roundtrip.py round-trips; every random
              program also runs through the lockstep (reference_lockstep_*),
              which compares all of SBUF, PSUM and HBM after each instruction,
              so a write outside dst is caught there (what the hand-listed
              cases of tests/interp/untouched_memory_test.cpp check for some
              instructions), and reference_lockstep_coverage asks for 200
              instances with nonzero results per instruction. An instruction
              that meets other cores (sendrecv, core_barrier: the random
              programs have one core, and so has the lockstep) may instead
              name, in its module's MULTI_CORE, the test that checks it
              against the model with two cores (its first word: a file of
              the repository, registered in a tests.cmake)
  docs        the entry **RULE `NAME`** in docs/SEMANTICS.md, RULE the
              module's (any **S<n>.<m> `NAME`** when there is no module)
  nki         nisa.nki.isa.NAME (python/nisa/nki/isa.py), or NAME in that
              module's ABSENT {name: reason}; checked with the built
              Python package (NISA_PYTHON_DIR, default build/python) and
              skipped, saying so, in a build without it (the sanitizer tree:
              NISA_PYTHON_DIR set empty)

Also stale: a reference module or semantics for a name the spec does not have.

Usage: instruction_coverage.py [REPO_ROOT]  (default: two folders up)
"""
import json
import os
import re
import sys

ROUND_TRIP_SEED, ROUND_TRIP_COUNT = 11, 60  # tests/dis/roundtrip.py's lockstep-mix programs


def read(root, path):
    with open(os.path.join(root, path), encoding="utf-8") as f:
        return f.read()


def emitted_mnemonics(gen_programs, mix):
    """{mnemonic: count} over the round trip's lockstep-mix programs."""
    import nasm_reader
    counts = {}
    for k in range(ROUND_TRIP_COUNT):
        text, _ = gen_programs.build(gen_programs.program_seed(ROUND_TRIP_SEED, k), mix)
        for ins in nasm_reader.read_program(text).instrs:
            counts[ins.mnemonic] = counts.get(ins.mnemonic, 0) + 1
    return counts


def nki_isa(root):
    """The nisa.nki.isa module, or (None, why) without the built package."""
    build = os.environ.get("NISA_PYTHON_DIR")
    if build == "":  # a build without the package (ctest sets it empty)
        return None, None
    required = build is not None
    build = build or os.path.join(root, "build", "python")
    if not os.path.isdir(os.path.join(build, "nisa")):
        if required:
            return None, f"NISA_PYTHON_DIR={build} has no nisa package"
        return None, None
    sys.path.insert(0, build)
    try:
        import nisa.nki.isa as isa
    except Exception as e:  # noqa: BLE001 (reported as a missing piece)
        return None, f"import nisa.nki.isa from {build} failed: {type(e).__name__}: {e}"
    return isa, None


def multi_core_test(root, module):
    """The test a cross-core instruction's module names in MULTI_CORE, when that
    file exists and a tests.cmake runs it; else None."""
    text = getattr(module, "MULTI_CORE", None)
    if not isinstance(text, str) or not text.split():
        return None
    path = text.split()[0]
    if not os.path.isfile(os.path.join(root, path)):
        return None
    registered = any(os.path.basename(path) in read(root, os.path.join(folder, "tests.cmake"))
                     for folder in (os.path.dirname(path), "tests")
                     if os.path.isfile(os.path.join(root, folder, "tests.cmake")))
    return path if registered else None


def pieces(root, name, module, counts, docs, isa):
    """{piece: (present, where to add it)} for one instruction; present None: not checked."""
    kernel_file = f"interp/instructions/{name}.cpp"
    kernel = os.path.isfile(os.path.join(root, kernel_file)) and re.search(
        r"\bconst\s+InstructionSemantics\s+" + re.escape(name) + r"_semantics\b", read(root, kernel_file)) is not None
    ref_file = f"tests/reference/instructions/{name}.py"
    rule = getattr(module, "RULE", None)
    reference = module is not None and isinstance(rule, str) and callable(getattr(module, name, None))
    declared = bool(getattr(module, "BLOCKS", None)) or bool(getattr(module, "EMITTED_BY", None))
    multi_core = multi_core_test(root, module)
    emitter = (declared and counts.get(name, 0) > 0) or multi_core is not None
    entry = re.escape(rule) if isinstance(rule, str) else r"S\d+\.\d+"
    in_docs = re.search(r"^\*\*" + entry + r" `" + re.escape(name) + r"`\*\*", docs, re.M) is not None
    if isa is None:
        nki = None
    else:
        not_exposed = getattr(isa, "ABSENT", {})
        nki = (callable(getattr(isa, name, None)) and name not in getattr(isa, "NOT_MODELED", ())) or \
            bool(not_exposed.get(name))
    emitter_where = (f"BLOCKS (gen_common.Block), EMITTED_BY or MULTI_CORE in {ref_file}" if not declared else
                     f"its random instances in the {ROUND_TRIP_COUNT} lockstep-mix programs of seed {ROUND_TRIP_SEED} "
                     f"(a larger Block weight or lockstep weight in {ref_file})")
    return {
        "kernel": (kernel, f"{kernel_file} defining `const InstructionSemantics {name}_semantics`"),
        "reference": (reference, f"{ref_file} with RULE = \"S<n>.<m>\" and def {name}(m, o)"),
        "emitter": (emitter, emitter_where),
        "docs": (in_docs, f"an entry **{rule if isinstance(rule, str) else 'S<n>.<m>'} `{name}`** in docs/SEMANTICS.md"
                          + (f" (the RULE of {ref_file})" if isinstance(rule, str) else "")),
        "nki": (nki, f"nisa.nki.isa.{name} (python/nisa/nki/isa.py), or {name!r} in its ABSENT with a reason"),
    }


def main(argv):
    root = os.path.abspath(argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(__file__), "..", ".."))
    with open(os.path.join(root, "isa-spec/isa.json"), encoding="utf-8") as f:
        names = [ins["name"] for ins in json.load(f)["instructions"]]
    sys.path.insert(0, os.path.join(root, "tests", "reference"))
    import gen_programs  # noqa: E402 (after the path is set)
    import instructions  # noqa: E402
    import lockstep  # noqa: E402 (its mix; nisa itself is imported only by its main)

    counts = emitted_mnemonics(gen_programs, lockstep.LOCKSTEP_MIX)
    docs = read(root, "docs/SEMANTICS.md")
    isa, why = nki_isa(root)
    missing, skipped = [], set()
    if why:
        missing.append(f"nki: {why}")
    for name in names:
        module = instructions.MODULES.get(name)
        for piece, (present, where) in pieces(root, name, module, counts, docs, isa).items():
            if present is None:
                skipped.add(piece)
            elif not present:
                missing.append(f"instruction {name}: missing {piece}: {where}")
    # A reference module for an instruction the spec does not have is stale.
    for name in sorted(set(instructions.MODULES) - set(names)):
        missing.append(f"instruction {name}: tests/reference/instructions/{name}.py but not in isa-spec/isa.json")
    for line in missing:
        print(line, file=sys.stderr)
    if missing:
        print(f"FAIL: {len(missing)} missing piece(s)", file=sys.stderr)
        return 1
    checked = [p for p in ("kernel", "reference", "emitter", "docs", "nki") if p not in skipped]
    print(f"ok: {len(names)} instructions, each with {', '.join(checked)}")
    if skipped:
        print(f"not checked: {', '.join(sorted(skipped))} (no Python package in this build)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
