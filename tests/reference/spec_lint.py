"""A small checker of parsed programs against isa-spec/isa.json and S1.5, used to
keep the generator honest without nisa: operand memories and dtypes, slices
inside their tensors, partition alignment of compute-engine operands, arch
versions, same-shape and [P, 1] relations. Returns a list of problems."""
import numpy as np

import nasm_reader
import ref_dtypes
from ref_common import tensor_indirect_start

ARCH_VERSION = {a["name"]: a["version"] for a in nasm_reader.SPEC["archs"]}
ENGINE_OF = {i["name"]: i["engine"] for i in nasm_reader.SPEC["instructions"]}
MEMORIES = {e["name"]: e["memories"] for e in nasm_reader.SPEC["engines"]}


def dtype_allowed(allowed, dtype):
    if "any" in allowed:
        return True
    if "float" in allowed and ref_dtypes.is_float(dtype):
        return True
    return dtype in allowed


def aligned(start, count):
    """S1.5: >64 partitions start at 0; 33..64 at 0 or 64; 1..32 at 0, 32, 64 or 96."""
    if count > 64:
        return start == 0
    if count > 32:
        return start in (0, 64)
    return start in (0, 32, 64, 96)


def geometry(prog, view):
    decl = prog.decls[view.name]
    return view.part_start, view.part_count, int(np.prod(view.counts[1:]))


def lint(prog):
    problems = []
    if prog.arch not in ARCH_VERSION:
        return [f"unknown arch {prog.arch}"]
    for ins in prog.instrs:
        spec = nasm_reader.INSTRUCTIONS[ins.mnemonic]
        where = f"line {ins.line} {ins.mnemonic}"
        if ARCH_VERSION[spec["arch"]] > ARCH_VERSION[prog.arch]:
            problems.append(f"{where}: needs {spec['arch']}")
        engine = ENGINE_OF[ins.mnemonic]
        if spec.get("engine_operand") and ins.ops.get(spec["engine_operand"], "unknown") != "unknown":
            engine = ins.ops[spec["engine_operand"]]  # S8.2: engine= selects it
        for op_spec in spec["operands"]:
            v = ins.ops.get(op_spec["name"])
            if v is None and op_spec.get("required"):
                problems.append(f"{where}: missing {op_spec['name']}")
            if not isinstance(v, nasm_reader.View):
                continue
            decl = prog.decls[v.name]
            # a cross-core instruction's engine= says who waits (S16.3): its operand is the spec's alone
            engine_reaches = spec.get("cross_core") or decl.memory in MEMORIES[engine]
            if decl.memory not in op_spec["memories"] or not engine_reaches:
                problems.append(f"{where}: {op_spec['name']} in {decl.memory}")
            if not dtype_allowed(op_spec["dtypes"], decl.dtype):
                problems.append(f"{where}: {op_spec['name']} dtype {decl.dtype}")
            for (s, c, st), size in zip(v.dims or [], decl.shape):
                if s < 0 or c < 1 or s + (c - 1) * st >= size:
                    problems.append(f"{where}: {op_spec['name']} slice outside {v.name}")
            # an .indirect() view's columns are runtime offsets (S1.7): its start stays inside
            index = v.flat_index() if v.indirect != "tensor" else tensor_indirect_start(v).flat_index()
            if index.min() < 0 or index.max() >= int(np.prod(decl.shape)):
                problems.append(f"{where}: {op_spec['name']} access pattern outside {v.name}")
            start, count, _ = geometry(prog, v)
            per_partition = int(np.prod(decl.shape[1:]))
            if decl.memory != "hbm" and count > 1 and v.pattern[0][0] != per_partition:
                problems.append(f"{where}: partition step of {v.name} is not its elements per partition")
            if engine != "dma" and not aligned(start, count):
                problems.append(f"{where}: {op_spec['name']} partitions {start}+{count} break S1.5")
        for check in spec.get("constraints", []):
            if check["check"] in ("on_engine", "matmul"):
                problems += lint_tensor_engine(prog, ins, check, engine, where)
                continue
            names = (list(check.get("operands", [])) + [None, None])[:2]  # one-operand checks: b is None
            a, b = (ins.ops.get(n) if n else None for n in names)
            if not (isinstance(a, nasm_reader.View) and isinstance(b, nasm_reader.View)):
                continue
            ga, gb = geometry(prog, a), geometry(prog, b)
            kind = check["check"]
            if kind == "same_shape" and ga[1:] != gb[1:]:
                problems.append(f"{where}: {check['operands']} shapes {ga[1:]} {gb[1:]}")
            if kind == "same_partitions" and ga[:2] != gb[:2]:
                problems.append(f"{where}: {check['operands']} partitions differ")
            if kind == "column_of" and (ga[1] != gb[1] or ga[2] != 1):
                problems.append(f"{where}: {check['operands'][0]} is not [P, 1]")
            if kind == "one_more_element" and (ga[2] != gb[2] + 1 or ga[1] != gb[1]):
                problems.append(f"{where}: not one more element")
            if kind == "same_dtype" and prog.decls[a.name].dtype != prog.decls[b.name].dtype:
                problems.append(f"{where}: {check['operands']} dtypes differ")
            if kind == "not_both_in" and prog.decls[a.name].memory == prog.decls[b.name].memory == check["memory"]:
                problems.append(f"{where}: {check['operands']} both in {check['memory']}")
            if kind == "same_dtype_if_tensors" and prog.decls[a.name].dtype != prog.decls[b.name].dtype:
                problems.append(f"{where}: {check['operands']} dtypes differ")
            if kind == "same_dtype_if_mx" and prog.decls[a.name].dtype != prog.decls[b.name].dtype and \
                    "mx" in (ref_dtypes.DTYPES[prog.decls[a.name].dtype][1], ref_dtypes.DTYPES[prog.decls[b.name].dtype][1]):
                problems.append(f"{where}: {check['operands']} dtypes differ and one is MX")
            if kind == "transpose_of" and (ga[1] != gb[2] or ga[2] != gb[1]):
                problems.append(f"{where}: {check['operands'][0]} is not {check['operands'][1]} transposed")
    return problems


def lint_tensor_engine(prog, ins, check, engine, where):
    """The Tensor Engine batch's checks (SEMANTICS.md S8), the parts the generator must respect."""
    problems = []
    if check["check"] == "on_engine":
        if engine not in check["engines"]:
            return problems
        for name in check.get("operands", []):
            v = ins.ops.get(name)
            if not isinstance(v, nasm_reader.View):
                continue
            if "memory" in check and prog.decls[v.name].memory != check["memory"]:
                problems.append(f"{where}: {name} not in {check['memory']} on {engine}")
            _, parts, elems = geometry(prog, v)
            if "max_size" in check and max(parts, elems) > check["max_size"]:
                problems.append(f"{where}: {name} larger than {check['max_size']} on {engine}")
        if "arch" in check and ARCH_VERSION[check["arch"]] > ARCH_VERSION[prog.arch]:
            problems.append(f"{where}: {engine} needs {check['arch']}")
        return problems
    dst, st, mv = (ins.ops.get(n) for n in check["operands"][:3])
    split = 2 if ins.ops.get("perf_mode") == "double_row" else 1
    _, k1, m = geometry(prog, st)
    _, k2, n = geometry(prog, mv)
    if k1 != k2 or geometry(prog, dst)[1:] != (m // split, n // split):
        problems.append(f"{where}: matmul shapes")
    size = ins.ops.get("tile_size") or [128, 128]
    if k1 > size[0] or m // split > size[1]:
        problems.append(f"{where}: stationary larger than the PE tile")
    return problems
