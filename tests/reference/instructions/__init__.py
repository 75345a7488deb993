"""One module per instruction of isa-spec/isa.json (issue 26), found here by
name: `instructions/<name>.py` holds

  RULE                 the docs/SEMANTICS.md rule it implements, e.g. "S4.27"
  <name>(m, o)         its NumPy semantics on a ref_machine.Machine (the function
                       named like the file and the instruction)
  BLOCKS               its random blocks (gen_common.Block: emitter, weight, arch
                       need (default: the spec's archs), table order, lockstep
                       weight), or
  EMITTED_BY           where its instances come from when another block emits it
                       (accumulator chains, loads and stores, a sibling's block)
  MULTI_CORE           for an instruction that meets other cores (sendrecv,
                       core_barrier): the test that checks it with two cores
                       (run_multicore.py), in place of the lockstep's count
                       and, for sendrecv, of a random block (one core has no peer)
  ULP_BUDGET           the lockstep's ulp budget when not 0: a number, or a
                       function of the instruction (nasm_reader.Instr)
  KEEPS_NAN_PAYLOAD    True when it copies bits (a NaN keeps its payload), or the
                       name of the operand that is copied bit for bit when its
                       dtype is dst's
  ZERO_SIGN_OPEN       True when S2.1 leaves the sign of a zero result open
                       (maximum/minimum reductions)

Everything below is derived from those modules: nothing else lists instructions
by hand (tests/spec_coverage/instruction_coverage.py checks that every spec
instruction has its module, rule, semantics and emitter)."""
import importlib
import os
import pkgutil

import nasm_reader

SPEC_NAMES = [i["name"] for i in nasm_reader.SPEC["instructions"]]
_SPEC_INDEX = {name: k for k, name in enumerate(SPEC_NAMES)}

# {name: module}, in spec order (then any module the spec does not have, by name)
MODULES = {}
for _info in sorted(pkgutil.iter_modules([os.path.dirname(os.path.abspath(__file__))]),
                    key=lambda i: (_SPEC_INDEX.get(i.name, len(SPEC_NAMES)), i.name)):
    if not _info.name.startswith("_"):
        MODULES[_info.name] = importlib.import_module(f"{__name__}.{_info.name}")

# {mnemonic: semantics function}: what nki_ref.run_program executes
SEMANTICS = {name: getattr(module, name) for name, module in MODULES.items() if callable(getattr(module, name, None))}


_ARCH_VERSION = {a["name"]: a["version"] for a in nasm_reader.SPEC["archs"]}
_MIN_ARCH = {i["name"]: i["arch"] for i in nasm_reader.SPEC["instructions"]}


def _spec_needs(name):
    """needs(b) from the spec: programs whose arch has the instruction (None: every arch)."""
    version = _ARCH_VERSION.get(_MIN_ARCH.get(name), 0)
    if version <= min(_ARCH_VERSION.values()):
        return None

    def needs(b):
        return _ARCH_VERSION[b.arch] >= version
    needs.__name__ = f"has_{_MIN_ARCH[name]}"
    return needs


def blocks():
    """[(Block, sort key)] of every module, the key placing a block in gen_programs' table:
    its recorded `order`, or (new blocks) after every recorded one, in spec order. A new
    block without `needs` runs on the archs the spec gives the instruction (a block with
    an `order` keeps what it says: exponential's falls back to reciprocal before trn3)."""
    out = []
    for name, module in MODULES.items():
        for k, block in enumerate(getattr(module, "BLOCKS", ())):
            if block.order is not None:
                key = (block.order, 0, 0)
            else:
                key = (float("inf"), _SPEC_INDEX.get(name, len(SPEC_NAMES)), k)
                if block.needs is None:
                    block = block._replace(needs=_spec_needs(name))
            out.append((block, key))
    return out


def lockstep_weights():
    """{emitter name: weight} of the blocks with a lockstep weight (lockstep.LOCKSTEP_MIX)."""
    return {block.emit.__name__: block.lockstep for block, _ in blocks() if block.lockstep is not None}


def ulp_budget(ins):
    """The lockstep's ulp budget for one instruction's results (0: the same bits)."""
    budget = getattr(MODULES.get(ins.mnemonic), "ULP_BUDGET", 0)
    return budget(ins) if callable(budget) else budget


def keeps_nan_payload(prog, ins):
    """Whether `ins` copies bits, so that a NaN it writes must keep its payload."""
    keeps = getattr(MODULES.get(ins.mnemonic), "KEEPS_NAN_PAYLOAD", False)
    if not isinstance(keeps, str):
        return bool(keeps)
    view = ins.ops.get(keeps)
    if not hasattr(view, "dims"):
        return False
    return prog.decls[view.name].dtype == prog.decls[ins.ops["dst"].name].dtype


def zero_sign_open_always(ins):
    return bool(getattr(MODULES.get(ins.mnemonic), "ZERO_SIGN_OPEN", False))
