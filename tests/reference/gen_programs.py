#!/usr/bin/python3
"""Seeded random program generator (issue 3). Each program is a .nasm text in
the language of LANGUAGE.md section 2, its input .npy files, and the expected
outputs computed by the independent model nki_ref.py.

    gen_programs.py --count N --seed S --out DIR   # DIR/prog_K/{prog.nasm, inputs/, expected/, tolerance.json}
"""
import argparse
import json
import os
import shutil
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import instructions  # noqa: E402 (one module per instruction, with its random blocks)
import nasm_reader  # noqa: E402
import nki_ref  # noqa: E402
import ref_dtypes  # noqa: E402
from gen_builder import ProgramBuilder  # noqa: E402
from gen_common import FLOATS, INTS, any_dtype, compute_mem  # noqa: E402
from instructions.activate2 import emit_activate2  # noqa: E402
from instructions.activation import emit_activation  # noqa: E402
from instructions.iota import emit_iota  # noqa: E402
from instructions.memset import emit_memset  # noqa: E402
from instructions.range_select import emit_range_select, range_select_operands  # noqa: E402
from instructions.select_reduce import emit_select_reduce  # noqa: E402
from instructions.tensor_scalar import emit_tensor_scalar  # noqa: E402
from instructions.tensor_tensor import emit_tensor_tensor  # noqa: E402

ARCHS = [("trn1", 0.07), ("inf2", 0.03), ("trn2", 0.5), ("trn3", 0.4)]


# ---- blocks: a few instructions with their loads and stores ----

def block_dma(b):
    """DMA ignores S1.5: any partition start; HBM views with steps and windows."""
    dtype = any_dtype(b, 0.5)
    c = int(b.rng.integers(1, 129))
    s = int(b.rng.integers(0, 129 - c))
    t = b.tile(dtype, s, c, b.free_shape(200))
    t.whole = t.whole and s == 0
    b.load(t, b.values(dtype, (c, t.elems), -1000, 1000, specials=True))
    b.store(t)


def block_psum_wide(b):
    """A PSUM tile spanning several 2 KiB banks (LANGUAGE.md 2.1), processed on Vector and Scalar."""
    s, c = b.lanes()
    n = int(b.rng.integers(520, 1000))
    t = b.tile("f32", s, c, [n], "psum")
    b.features.add("psum_wide")
    b.load(t, b.values("f32", (c, n), -3, 3))
    emit = b.pick(["tensor_reduce", "activation"])
    out = b.tile("f32", s, c, [1] if emit == "tensor_reduce" else [n], compute_mem(b))
    if emit == "tensor_reduce":
        b.instr("tensor_reduce", dst=out, data=t, op=b.pick(["maximum", "minimum", "abs_max"]))
    else:
        b.instr("activation", dst=out, op=b.pick(["tanh", "relu", "square"]), data=t, scale=0.5)
    b.store(out)


def emit_scalar_acc(b, s, c, cmd, with_res, reduce_op="add"):
    """activation (add only) or, on trn3, activate2: whichever can take reduce_op."""
    if b.arch == "trn3" and (reduce_op != "add" or b.chance(0.5)):
        if cmd == "idle" and b.chance(0.5):
            reduce_op = None
        emit_activate2(b, s, c, cmd, with_res, reduce_op)
    else:
        emit_activation(b, s, c, cmd, with_res, positive=cmd in ("reduce", "reset_reduce"))


def block_vector_acc(b):
    s, c = b.lanes()
    cmd = b.pick(["reset_reduce", "reset_reduce", "idle", "reset", "reduce"])
    emit = b.pick([emit_select_reduce, emit_range_select])
    emit(b, s, c, cmd, b.chance(0.85))


def block_scalar_acc(b):
    s, c = b.lanes()
    cmd = b.pick(["reset_reduce", "reset_reduce", "idle", "reset"])
    op = b.pick(["add", "maximum", "minimum", "abs_max", "abs_min"]) if b.arch == "trn3" else "add"
    emit_scalar_acc(b, s, c, cmd, b.chance(0.85), op)


def idle_vector(b, lanes=None):
    s, c = lanes or b.lanes()
    b.pick([emit_select_reduce, emit_range_select])(b, s, c, "idle", b.chance(0.5), store_dst=b.chance(0.5))


def idle_scalar(b, lanes=None):
    s, c = lanes or b.lanes()
    emit_scalar_acc(b, s, c, "idle", b.chance(0.5), "add")


def chain_lanes(b, s, c):
    return b.sub_lanes(s, c) if b.chance(0.2) else (s, c)


def block_vector_chain(b):
    """S3 chain on the Vector accumulator: reset_reduce, reduce..., reduce_res, with
    other instructions (idle ones included) in between (S4.4; NKI's range_select docstring, example 2)."""
    s, c = b.lanes()
    b.emit(f"; vector accumulator chain on partitions {s}..{s + c - 1}")
    b.features.add("vector_chain")
    steps = int(b.rng.integers(2, 6))
    fillers = [emit_tensor_scalar, emit_tensor_tensor, emit_memset, block_dma, block_scalar_acc, emit_iota,
               lambda g: idle_vector(g, (s, c)), lambda g: idle_vector(g, chain_lanes(g, s, c))]
    first = "reset_reduce" if b.chance(0.8) else "reset"
    for k in range(steps):
        cmd = first if k == 0 else "reduce"
        last = k == steps - 1
        lanes = (s, c) if k == 0 or last else chain_lanes(b, s, c)
        b.pick([emit_select_reduce, emit_range_select])(b, *lanes, cmd, last or b.chance(0.2),
                                                         store_dst=b.chance(0.5))
        if not last:
            for _ in range(int(b.rng.integers(0, 3))):
                b.pick(fillers)(b)
    if b.chance(0.3):
        idle_vector(b, (s, c))  # reduce_res of an idle instruction reads the accumulator unchanged


def block_scalar_chain(b):
    """S3 chain on the Scalar accumulator, shared by activation and activate2."""
    s, c = b.lanes()
    b.emit(f"; scalar accumulator chain on partitions {s}..{s + c - 1}")
    b.features.add("scalar_chain")
    op = b.pick(["add", "add", "maximum", "minimum", "abs_max", "abs_min"]) if b.arch == "trn3" else "add"
    steps = int(b.rng.integers(2, 6))
    fillers = [emit_tensor_scalar, emit_tensor_tensor, emit_memset, block_dma, block_vector_acc,
               lambda g: idle_scalar(g, (s, c)), lambda g: idle_scalar(g, chain_lanes(g, s, c))]
    first = "reset_reduce" if b.chance(0.8) else "reset"
    for k in range(steps):
        cmd = first if k == 0 else "reduce"
        last = k == steps - 1
        lanes = (s, c) if k == 0 or last else chain_lanes(b, s, c)
        emit_scalar_acc(b, *lanes, cmd, last or b.chance(0.2), op)
        if not last:
            for _ in range(int(b.rng.integers(0, 3))):
                b.pick(fillers)(b)


def cols(t, a, z):
    """Text of tile t restricted to free columns [a, z) (expressions allowed)."""
    off = f"{t.col_offset}+" if t.col_offset else ""
    return f"{t.name}[{t.pstart}:{t.pstart + t.pcount}, {off}{a}:{off}{z}]"


def block_rept(b):
    """.rept over column chunks of one tile (LANGUAGE.md 2.1), expressions in slices and operands."""
    b.features.add("rept")
    s, c = b.lanes()
    k = int(b.rng.integers(3, 6))
    w = int(b.rng.integers(1, 40))
    width = w
    if b.chance(0.5):
        width = b.fresh("W")
        b.emit(f".equ {width}, {w}")
    n = k * w
    kind = b.pick(["range_select", "dma", "memset", "activation"])
    if kind == "range_select":
        dtype = b.pick(FLOATS)
        t = b.tile(dtype, s, c, [n], "sbuf")
        b.load(t, b.values(dtype, (c, n), -50, 50))
        o = b.tile(b.pick(FLOATS), s, c, [n], "sbuf")
        rs = int(b.rng.integers(-10, 100))
        b0, b1, (cmp0, cmp1) = range_select_operands(b, s, c, n, rs)
        res = b.tile(b.pick(FLOATS), s, c, [1], "sbuf")
        common = f"comp_op0={cmp0}, comp_op1={cmp1}, bound0={b0.ref()}, bound1={b1.ref()}"
        b.emit(f"range_select dst={cols(o, 0, width)}, on_true_tile={cols(t, 0, width)}, {common}, "
               f"reduce_cmd=reset_reduce, range_start={rs}")
        b.emit(f".rept i, {k - 2}")
        b.emit(f"  range_select dst={cols(o, f'(i+1)*{width}', f'(i+2)*{width}')}, "
               f"on_true_tile={cols(t, f'(i+1)*{width}', f'(i+2)*{width}')}, {common}, "
               f"reduce_cmd=reduce, range_start={rs}+(i+1)*{width}")
        b.emit(".endr")
        b.emit(f"range_select dst={cols(o, f'{k - 1}*{width}', f'{k}*{width}')}, "
               f"on_true_tile={cols(t, f'{k - 1}*{width}', f'{k}*{width}')}, {common}, "
               f"reduce_cmd=reduce, reduce_res={res.ref()}, range_start={rs}+{k - 1}*{width}")
        b.store(o)
        b.store(res)
    elif kind == "dma":
        dtype = any_dtype(b, 0.5)
        x = b.hbm(dtype, [c, n], "input", b.values(dtype, (c, n)))
        t = b.tile(dtype, s, c, [n], "sbuf")
        b.emit(f".rept i, {k}")
        b.emit(f"dma_copy dst={cols(t, f'i*{width}', f'(i+1)*{width}')}, src={x}[:, i*{width}:(i+1)*{width}]")
        b.emit(".endr")
        b.store(t)
    elif kind == "memset":  # nested .rept; the value is an expression of both variables
        dtype = b.pick(["f32", "bf16", "i32", "u8", "i16", "fp8e4m3"])
        t = b.tile(dtype, s, c, [n], "sbuf")
        b.emit(".rept i, 2")  # the second pass overwrites the first
        b.emit(f"  .rept j, {k}")
        b.emit(f"    memset dst={cols(t, f'j*{width}', f'(j+1)*{width}')}, value=i*10+j*3-(j/2)")
        b.emit("  .endr")
        b.emit(".endr")
        b.store(t)
    else:  # activation add-chain over chunks (S3: reset_reduce, then reduce)
        dtype = b.pick(["f32", "bf16", "f16"])
        t = b.tile(dtype, s, c, [n], "sbuf")
        b.load(t, b.values(dtype, (c, n), 0.1, 3.0))
        o = b.tile("f32", s, c, [n], "sbuf")
        res = b.tile("f32", s, c, [1], "sbuf")
        op = b.pick(["exp", "copy", "square", "sigmoid", "abs", "relu", "softplus", "sqrt"])
        b.emit(f"activation dst={cols(o, 0, width)}, op={op}, data={cols(t, 0, width)}, "
               f"reduce_op=add, reduce_cmd=reset_reduce")
        b.emit(f".rept i, {k - 1}")
        b.emit(f"activation dst={cols(o, f'(i+1)*{width}', f'(i+2)*{width}')}, op={op}, "
               f"data={cols(t, f'(i+1)*{width}', f'(i+2)*{width}')}, reduce_op=add, reduce_cmd=reduce")
        b.emit(".endr")
        b.emit(f"activation dst={o.name}[{s}:{s + c}, 0:1], op=copy, data={t.name}[{s}:{s + c}, 0:1], "
               f"reduce_res={res.ref()}")
        b.store(res)
        b.store(o)


def block_overwrite(b):
    """One tile written several times before it is read (dead stores, SEMANTICS S14.1):
    whole, a column window or every other column, by instructions a run may skip,
    with Vector and Scalar accumulator resets and sometimes a read in between."""
    b.features.add("overwrite")
    s, c = b.lanes()
    n = int(b.rng.integers(2, 97))
    src = b.tile("f32", s, c, [n])
    b.load(src, b.values("f32", (c, n)))
    dst = b.tile(b.pick(["f32", "f32", "bf16"]), s, c, [n])
    res = b.tile("f32", s, c, [1])
    lo, _ = b.column(s, c, 0, n // 2)
    hi, _ = b.column(s, c, n // 2, n)
    half = (n + 1) // 2
    wrote_res = False
    for k in range(int(b.rng.integers(2, 6))):
        window = "whole" if k == 0 else b.pick(["whole", "whole", "left", "strided"])
        if window == "whole":
            d, x = dst, src
        elif window == "left":
            d, x = cols(dst, 0, half), cols(src, 0, half)
        else:
            d = f"{dst.name}[{dst.pstart}:{dst.pstart + dst.pcount}, {dst.col_offset}:{dst.col_offset + n}:2]"
            x = cols(src, 0, half)
        kind = b.pick(["tensor_scalar", "tensor_tensor", "memset", "range_select", "activation"])
        if kind == "tensor_scalar":
            b.instr("tensor_scalar", dst=d, data=x, op0=b.pick(["add", "multiply", "maximum"]),
                    operand0=float(b.values("f32", (1,), -3, 3)[0]))
        elif kind == "tensor_tensor":
            b.instr("tensor_tensor", dst=d, data1=x, data2=x, op=b.pick(["add", "subtract", "minimum"]))
        elif kind == "memset":
            b.instr("memset", dst=d, value=float(b.values("f32", (1,), -3, 3)[0]))
        elif kind == "range_select" and window == "whole":
            b.instr("range_select", dst=d, on_true_tile=x, comp_op0="greater_equal", comp_op1="less",
                    bound0=lo, bound1=hi, reduce_cmd=b.pick(["reset_reduce", "reset_reduce", "reduce"]),
                    reduce_res=res if b.chance(0.7) else None, reduce_op="maximum")
            wrote_res = True
        else:
            cmd = b.pick(["reset_reduce", "idle"])
            b.instr("activation", dst=d, op=b.pick(["copy", "relu"]), data=x, reduce_cmd=cmd,
                    reduce_op="add" if cmd != "idle" else None, reduce_res=res if b.chance(0.5) else None)
            wrote_res = True
        if b.chance(0.2):
            b.store(dst)  # read between the writes
    b.store(dst)
    if wrote_res:
        b.store(res)


def block_alias(b):
    """Tensors declared at the same `@` offset share bytes (LANGUAGE.md 2.1)."""
    if b.alias_next >= 4096:
        return block_dma(b)
    b.features.add("alias")
    base = b.alias_next
    b.alias_next += 512
    p = int(b.rng.integers(1, 129))
    kinds = ["f32", "i32", "u32", "bf16", "f16", "u16", "i16", "u8", "i8", "fp8e4m3", "fp8e5m2"]
    da, db = b.pick(kinds), b.pick(kinds)
    nbytes = 4 * int(b.rng.integers(1, 65))
    delta = b.pick([0, 0, 4, 8, 64]) if nbytes > 64 else 0
    na = nbytes // ref_dtypes.itemsize(da)
    nb = (nbytes - delta) // ref_dtypes.itemsize(db)
    a = b.tile(da, 0, p, [na], offset=base)
    a.whole = True
    bb = b.tile(db, 0, p, [nb], offset=base + delta)
    bb.whole = True
    # the tile helper may widen a declaration; aliases need exact ones
    b.decls[-2] = f".sbuf {a.name} {da} [{p}, {na}] @ {base}"
    b.decls[-1] = f".sbuf {bb.name} {db} [{p}, {nb}] @ {base + delta}"
    a.col_offset = bb.col_offset = 0
    a.windowed = bb.windowed = False
    a.decl_free, bb.decl_free = [na], [nb]
    if b.chance(0.5):
        b.instr("dma_copy", dst=a, src=b.hbm(da, [p, na], "input", b.values(da, (p, na), -100, 100)))
        b.store(bb)
    else:
        b.instr("dma_copy", dst=a, src=b.hbm(da, [p, na], "input", b.values(da, (p, na), -100, 100)))
        value = int(b.rng.integers(0, 100)) if db in INTS else float(b.values("f32", (1,), -10, 10)[0])
        b.instr("memset", dst=f"{bb.name}[0:{min(p, 32)}]", value=value)  # Vector: S1.5 alignment
        b.store(a)


# The blocks of several instructions (accumulator chains, .rept, aliases, DMA);
# each instruction's own blocks are in its module (instructions/<name>.py, BLOCKS).
# `order` is each block's place in the table from before issue 26 (the random
# stream depends on the order); see gen_common.Block.
PROGRAM_BLOCKS = [  # (block, weight, order)
    (block_dma, 1.0, 0), (block_vector_acc, 1.5, 5), (block_scalar_acc, 1.5, 6), (block_vector_chain, 1.2, 10),
    (block_scalar_chain, 1.2, 11), (block_rept, 0.8, 12), (block_alias, 0.5, 13), (block_psum_wide, 0.3, 14),
    (block_overwrite, 2.0, 15),  # issue 16: dead stores (S14.1)
]


def _table():
    rows = [((order, 0, 0), block, weight, None) for block, weight, order in PROGRAM_BLOCKS]
    rows += [(key, blk.emit, blk.weight, blk.needs) for blk, key in instructions.blocks()]
    rows.sort(key=lambda row: row[0])
    return [(block, weight, needs) for _, block, weight, needs in rows]


BLOCKS = _table()  # (block, weight, needs)


def build(seed, mix=None):
    """One program's (text, inputs {name: array}), without running the model. `mix` (a
    Mix, e.g. LOCKSTEP_MIX) changes the arch odds, the blocks' weights and their count."""
    rng = np.random.default_rng(seed)
    archs = mix.archs if mix else ARCHS
    names, weights = zip(*archs)
    arch = names[int(rng.choice(len(names), p=np.array(weights) / sum(weights)))]
    b = ProgramBuilder(rng, arch)
    b.alias_next = 0
    usable = [(f, mix.weight(f, w) if mix else w) for f, w, need in BLOCKS if need is None or need(b)]
    probs = np.array([w for _, w in usable])
    lo, hi = mix.blocks if mix else (2, 7)
    for _ in range(int(rng.integers(lo, hi))):
        usable[int(rng.choice(len(usable), p=probs / probs.sum()))][0](b)
    return f"; random program, seed {seed}\n" + b.text(), dict(b.inputs)


class Mix:
    """Another choice of programs from the same blocks: arch odds, a weight per block
    (by function name; others keep theirs), and the range of the block count [lo, hi)."""

    def __init__(self, archs, weights, blocks):
        self.archs, self.weights, self.blocks = archs, weights, blocks

    def weight(self, block, default):
        return self.weights.get(getattr(block, "__name__", ""), default)


def generate(seed, mix=None):
    """One program: (text, inputs {name: array}, expected {name: array}, checks dict: the
    diff tolerance and what `nisa run --strict` should do)."""
    text, inputs = build(seed, mix)
    expected, machine = nki_ref.run_program(text, inputs)
    checks = {"rtol": 1e-5, "atol": 1e-6,
              "strict_fault_line": machine.hazard[0] if machine.hazard else None,
              "strict_fault": machine.hazard[1] if machine.hazard else None,
              "strict_ambiguous": [f"line {line}: {why}" for line, why in machine.ambiguous],
              "accumulators": {engine: [float(x) for x in acc] for engine, acc in machine.acc.items()}}
    return text, inputs, expected, checks


def write_program(folder, text, inputs, expected, tolerance):
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(os.path.join(folder, "inputs"), exist_ok=True)
    os.makedirs(os.path.join(folder, "expected"), exist_ok=True)
    with open(os.path.join(folder, "prog.nasm"), "w") as f:
        f.write(text)
    for name, arr in inputs.items():
        np.save(os.path.join(folder, "inputs", name + ".npy"), arr)
    for name, arr in expected.items():
        np.save(os.path.join(folder, "expected", name + ".npy"), arr)
    with open(os.path.join(folder, "tolerance.json"), "w") as f:
        json.dump(tolerance, f)


def coverage(texts):
    """Counts of what a set of programs exercises (mnemonics, dtypes, flags, commands)."""
    import collections
    count = collections.Counter()
    for text in texts:
        prog = nasm_reader.read_program(text)
        count["arch " + prog.arch] += 1
        for d in prog.decls.values():
            count[f"dtype {d.dtype}"] += 1
            count[f"memory {d.memory}"] += 1
            if d.offset is not None:
                count["explicit @ offset"] += 1
        count[".rept"] += text.count(".rept")
        for ins in prog.instrs:
            count[ins.mnemonic] += 1
            for key, value in ins.ops.items():
                if key in ("reduce_cmd", "reduce_op", "op", "op0", "op1", "comp_op0", "comp_op1"):
                    count[f"{ins.mnemonic} {key}={value}"] += 1
                elif isinstance(value, bool) and value:
                    count[f"{ins.mnemonic} {key}=true"] += 1
                elif key in ("on_false", "imm0", "imm1", "operand0", "operand1", "scale", "bias", "src"):
                    kind = "tile" if isinstance(value, nasm_reader.View) else "scalar"
                    count[f"{ins.mnemonic} {key} {kind}"] += 1
                if isinstance(value, nasm_reader.View) and value.dims is None:  # NAME.ap(...)
                    memory = prog.decls[value.name].memory
                    count[f"access pattern {memory}"] += 1
                    steps = [step for step, num in value.pattern if num > 1]
                    if 0 in steps:
                        count[f"access pattern {memory} broadcast (step 0)"] += 1
                    if any(step < 0 for step in steps):
                        count[f"access pattern {memory} negative step"] += 1
                    if any(abs(a) < abs(b) for a, b in zip(steps, steps[1:]) if a and b):
                        count[f"access pattern {memory} permuted"] += 1
                    if memory != "hbm" and value.part_start:
                        count[f"access pattern {memory} partition offset"] += 1
                if isinstance(value, nasm_reader.View) and prog.decls[value.name].memory != "hbm":
                    start = value.part_start
                    count[f"partition start {start if start in (0, 32, 64, 96) else 'other'}"] += 1
    return count


def program_seed(seed, index):
    return seed * 100003 + index


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--count", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out")
    ap.add_argument("--mix", choices=["default", "lockstep"], default="default",
                    help="lockstep: lockstep.LOCKSTEP_MIX's programs (more blocks, every instruction often)")
    ap.add_argument("--text-only", action="store_true", help="write prog.nasm and inputs only (no model run)")
    ap.add_argument("--stats", action="store_true", help="print what the programs cover instead of writing them")
    args = ap.parse_args(argv)
    mix = None
    if args.mix == "lockstep":
        import lockstep  # noqa: E402 (it imports this module)
        mix = lockstep.LOCKSTEP_MIX
    if args.stats:
        count = coverage(build(program_seed(args.seed, k), mix)[0] for k in range(args.count))
        for key in sorted(count):
            print(f"{count[key]:7d}  {key}")
        return 0
    for k in range(args.count):
        if args.text_only:
            text, inputs = build(program_seed(args.seed, k), mix)
            write_program(os.path.join(args.out, f"prog_{k}"), text, inputs, {}, {})
        else:
            text, inputs, expected, tol = generate(program_seed(args.seed, k), mix)
            write_program(os.path.join(args.out, f"prog_{k}"), text, inputs, expected, tol)
    return 0


if __name__ == "__main__":
    sys.exit(main())
