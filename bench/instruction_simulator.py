#!/usr/bin/python3
"""A per-instruction NumPy simulator of recorded NKI programs: the approach of
NKI's own `nki.simulate`, the yardstick of bench/kernel_scaling.py.

The program's text (what `nisa.nki.to_nasm` records) is read once into a list
of closures, one per instruction, each over NumPy views of its operands;
running the program calls them in order, one or two NumPy calls per
instruction (np.copyto, a ufunc with out=, np.max/np.sum, np.matmul).

Memory is modelled as nisa places it: SBUF and PSUM are one byte array per
partition (the arch's partition size, docs/SEMANTICS.md S1.1), and a tile
declared `@ OFFSET` is a float32 view of its bytes there, so tiles the
recorder placed over dead ones (LANGUAGE.md 2.1) share memory as they do in
nisa. A tile without an offset gets its own array (the assembler never lets
those overlap). HBM inputs are the caller's arrays, read in place (an `inout`
one is copied); outputs start as zeros.

What it simulates is what the benchmark kernels record (float32 only):
dma_copy, tensor_tensor, tensor_scalar (arithmetic operators, a number or a
[P, 1] column as operand), activation (no accumulation), tensor_reduce
(free axes), nc_matmul, tensor_copy, memset. Anything else raises
SimulatorError naming the instruction. Arithmetic is NumPy's float32
(np.sum pairwise, np.matmul through BLAS), so results agree with nisa's to
rounding, not bit for bit.

The reader is fast for the recorder's regular text (one instruction per line,
`key=value` operands, plain slices); a program using anything else (.rept,
.equ, expressions, access patterns) is read with the reference model's reader
(tests/reference/nasm_reader.py), which reads the whole language but takes
~0.1 ms per line.

    instruction_simulator.py PROG.nasm [--input NAME=FILE.npy ...] [--dump DIR]
"""
import argparse
import os
import re
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
F32 = np.float32

# S1.1: bytes per partition.
SBUF_BYTES = {"trn1": 192 * 1024, "inf2": 192 * 1024, "trn2": 224 * 1024, "trn3": 256 * 1024}
PSUM_BYTES = 16 * 1024
DTYPES = {"f32": np.float32}

ALU = {"add": np.add, "subtract": np.subtract, "multiply": np.multiply, "maximum": np.maximum,
       "minimum": np.minimum, "divide": np.divide}
ACTIVATION = {
    "exp": np.exp, "reciprocal": np.reciprocal, "copy": None, "identity": None, "tanh": np.tanh, "log": np.log,
    "sqrt": np.sqrt, "square": np.square, "abs": np.abs, "sign": np.sign,
}
REDUCE = {"maximum": np.max, "minimum": np.min, "add": np.sum}


class SimulatorError(Exception):
    """The program uses something this simulator does not model."""


class Decl:
    __slots__ = ("name", "memory", "dtype", "shape", "role", "offset", "init")

    def __init__(self, name, memory, dtype, shape, role=None, offset=None, init=None):
        self.name, self.memory, self.dtype, self.shape = name, memory, dtype, shape
        self.role, self.offset, self.init = role, offset, init


class Operand:
    """A tensor operand: its tensor's name and one (start, count, step) per declared dimension."""
    __slots__ = ("name", "dims")

    def __init__(self, name, dims):
        self.name, self.dims = name, dims


class Program:
    def __init__(self, arch="trn2"):
        self.arch, self.decls, self.instrs = arch, {}, []  # instrs: [(mnemonic, {key: value})]


# ---- reading ----

class _NotPlain(Exception):
    """A line the fast reader does not take: the reference reader reads the program."""


_DECL = re.compile(r"\.(hbm|sbuf|psum)\s+(\w+)\s+(\w+)\s+\[([\d,\s]+)\]\s*(.*)$")
_OPERAND = re.compile(r"\s*(\w+)\s*=\s*(\[[^\]]*\]|\w+\[[^\]]*\]|[^,\[\]]+)\s*(?:,|$)")
_NUMBER = re.compile(r"[-+]?(\d+\.?\d*([eE][-+]?\d+)?|\.\d+([eE][-+]?\d+)?|inf|nan)$")


def read_program(text):
    """The program's declarations and instructions: the fast reader, else the reference model's."""
    try:
        return _read_plain(text)
    except _NotPlain:
        return _read_reference(text)


def _read_plain(text):
    prog = Program()
    values = {}  # operand text -> value: the recorder repeats the same operands line after line
    decls = prog.decls
    instrs = prog.instrs
    for line in text.splitlines():
        if ";" in line:
            line = line[:line.index(";")]
        line = line.strip()
        if not line:
            continue
        if line[0] == ".":
            head = line.split(None, 1)[0]
            if head in (".loc", ".file"):
                continue
            if head == ".arch":
                prog.arch = line.split()[1]
                continue
            m = _DECL.match(line)
            if not m:
                raise _NotPlain(line)
            memory, name, dtype, shape, tail = m.groups()
            decl = Decl(name, memory, dtype, [int(d) for d in shape.split(",")])
            tail = tail.strip()
            if memory == "hbm":
                parts = tail.split("=")
                decl.role = parts[0].strip()
                if len(parts) == 2:
                    init = parts[1].strip()
                    decl.init = init if init == "iota" else float(init)
            elif tail:
                if not tail.startswith("@") or not tail[1:].strip().isdigit():
                    raise _NotPlain(line)
                decl.offset = int(tail[1:])
            decls[name] = decl
            continue
        mnemonic, _, rest = line.partition(" ")
        ops, pos = {}, 0
        while pos < len(rest):
            m = _OPERAND.match(rest, pos)
            if not m:
                raise _NotPlain(line)
            key, raw = m.group(1), m.group(2).strip()
            value = values.get(raw)
            if value is None:
                value = values[raw] = _value(raw, decls)
            ops[key] = value
            pos = m.end()
        instrs.append((mnemonic, ops))
    return prog


def _value(raw, decls):
    if raw in decls:
        return Operand(raw, [(0, n, 1) for n in decls[raw].shape])
    if raw == "true" or raw == "false":
        return raw == "true"
    if raw[0] == "[":
        return [int(x) for x in raw[1:-1].split(",") if x.strip()]
    if "[" in raw:
        name, _, index = raw[:-1].partition("[")
        if name not in decls:
            raise _NotPlain(raw)
        parts = [p.strip() for p in index.split(",")]
        shape = decls[name].shape
        if len(parts) != len(shape):
            raise _NotPlain(raw)
        dims = []
        for part, size in zip(parts, shape):
            bounds = part.split(":")
            if not all(b.strip().lstrip("-").isdigit() for b in bounds if b.strip()) or len(bounds) > 3:
                raise _NotPlain(raw)
            if len(bounds) == 1:
                dims.append((int(bounds[0]), 1, 1))
                continue
            start = int(bounds[0]) if bounds[0].strip() else 0
            stop = int(bounds[1]) if bounds[1].strip() else size
            step = int(bounds[2]) if len(bounds) == 3 and bounds[2].strip() else 1
            if step <= 0:
                raise _NotPlain(raw)
            dims.append((start, max(0, -(-(stop - start) // step)), step))
        return Operand(name, dims)
    if _NUMBER.match(raw):
        return float(raw) if any(c in raw for c in ".eEn") else int(raw)
    if raw.replace("_", "").isalnum():
        return raw  # an enum value
    raise _NotPlain(raw)


def _read_reference(text):
    sys.path.insert(0, os.path.join(HERE, "..", "tests", "reference"))
    import nasm_reader  # noqa: E402
    ref = nasm_reader.read_program(text)
    prog = Program(ref.arch)
    for d in ref.decls.values():
        prog.decls[d.name] = Decl(d.name, d.memory, d.dtype, list(d.shape), d.role, d.offset, d.init)
    for ins in ref.instrs:
        ops = {}
        for key, value in ins.ops.items():
            if isinstance(value, nasm_reader.View):
                if value.dims is None or value.indirect:
                    raise SimulatorError(f"{ins.mnemonic}: access-pattern operand '{key}' is not simulated")
                value = Operand(value.name, value.dims)
            ops[key] = value
        prog.instrs.append((ins.mnemonic, ops))
    return prog


# ---- running ----

class Simulator:
    """One run's memory (bound to its inputs) and the program's instructions as closures."""

    def __init__(self, prog, inputs):
        self.prog = prog
        if prog.arch not in SBUF_BYTES:
            raise SimulatorError(f"arch {prog.arch} is not simulated")
        self.sbuf = np.zeros((128, SBUF_BYTES[prog.arch]), dtype=np.uint8)  # calloc'ed: untouched pages cost nothing
        self.psum = np.zeros((128, PSUM_BYTES), dtype=np.uint8)
        self.arrays = {}
        for d in prog.decls.values():
            if d.dtype not in DTYPES:
                raise SimulatorError(f"tensor {d.name}: dtype {d.dtype} is not simulated")
            dtype = np.dtype(DTYPES[d.dtype])
            if d.memory == "hbm":
                if d.role in ("input", "inout") and d.name in inputs:
                    a = np.ascontiguousarray(inputs[d.name], dtype=dtype)
                    if d.role == "inout":
                        a = a.copy()
                    a = a.reshape(d.shape)
                elif d.init == "iota":
                    a = np.arange(int(np.prod(d.shape)), dtype=np.float64).astype(dtype).reshape(d.shape)
                elif d.init is not None:
                    a = np.full(d.shape, d.init, dtype=dtype)
                elif d.role in ("input", "inout"):
                    raise SimulatorError(f"input {d.name} has no array")
                else:
                    a = np.zeros(d.shape, dtype=dtype)
            elif d.offset is None:
                a = np.zeros(d.shape, dtype=dtype)
            else:
                memory = self.sbuf if d.memory == "sbuf" else self.psum
                per_partition = int(np.prod(d.shape[1:], dtype=np.int64)) * dtype.itemsize
                a = memory[:d.shape[0], d.offset:d.offset + per_partition].view(dtype).reshape(d.shape)
            self.arrays[d.name] = a
        self.views = {}

    def view(self, operand):
        key = (operand.name, tuple(operand.dims))
        v = self.views.get(key)
        if v is None:
            a = self.arrays[operand.name]
            v = self.views[key] = a[tuple(slice(s, s + n * st, st) for s, n, st in operand.dims)]
        return v

    def column(self, x, ndim):
        """A scalar operand: a number, or a [P, 1] tile shaped to broadcast over [P, ...]."""
        if isinstance(x, Operand):
            v = self.view(x)
            return v.reshape((v.shape[0],) + (1,) * (ndim - 1))
        return F32(x)

    def decode(self, mnemonic, ops):
        fn = getattr(self, "op_" + mnemonic, None)
        if fn is None:
            raise SimulatorError(f"instruction {mnemonic} is not simulated")
        return fn(ops)

    def steps(self):
        return [self.decode(m, ops) for m, ops in self.prog.instrs]

    def outputs(self):
        return {d.name: self.arrays[d.name] for d in self.prog.decls.values()
                if d.memory == "hbm" and d.role in ("output", "inout")}

    # ---- instructions ----

    def op_dma_copy(self, o):
        dst, src = self.view(o["dst"]), self.view(o["src"])
        if src.shape != dst.shape:
            src = src.reshape(dst.shape)
        return lambda: np.copyto(dst, src)

    op_tensor_copy = op_dma_copy

    def op_memset(self, o):
        dst, value = self.view(o["dst"]), F32(o["value"])
        return lambda: dst.fill(value)

    def op_tensor_tensor(self, o):
        dst, a, b = self.view(o["dst"]), self.view(o["data1"]), self.view(o["data2"])
        f = ALU.get(o["op"])
        if f is None:
            raise SimulatorError(f"tensor_tensor op={o['op']} is not simulated")
        return lambda: f(a, b, out=dst)

    def op_tensor_scalar(self, o):
        dst, data = self.view(o["dst"]), self.view(o["data"])
        stages = []
        for i in ("0", "1"):
            op = o.get("op" + i, "bypass")
            if op == "bypass":
                continue
            if op not in ALU:
                raise SimulatorError(f"tensor_scalar op{i}={op} is not simulated")
            stages.append((ALU[op], self.column(o["operand" + i], data.ndim), bool(o.get("reverse" + i, False))))
        if not stages:
            return lambda: np.copyto(dst, data)
        (f0, x0, r0), rest = stages[0], stages[1:]
        if not rest:
            if r0:
                return lambda: f0(x0, data, out=dst)
            return lambda: f0(data, x0, out=dst)
        f1, x1, r1 = rest[0]

        def run():
            f0(x0, data, out=dst) if r0 else f0(data, x0, out=dst)
            f1(x1, dst, out=dst) if r1 else f1(dst, x1, out=dst)
        return run

    def op_activation(self, o):
        dst, data = self.view(o["dst"]), self.view(o["data"])
        if o.get("reduce_cmd", "idle") != "idle" or o.get("reduce_res") is not None:
            raise SimulatorError("activation with an accumulator is not simulated")
        op = o["op"]
        if op not in ACTIVATION:
            raise SimulatorError(f"activation op={op} is not simulated")
        f = ACTIVATION[op]
        scale, bias = o.get("scale", 1.0), o.get("bias")
        if isinstance(scale, Operand) or float(scale) != 1.0 or bias is not None:
            s, b = self.column(scale, data.ndim), self.column(bias if bias is not None else 0.0, data.ndim)
            if f is None:
                return lambda: np.add(data * s, b, out=dst)

            def run():
                np.add(data * s, b, out=dst)
                f(dst, out=dst)
            return run
        if f is None:
            return lambda: np.copyto(dst, data)
        return lambda: f(data, out=dst)

    def op_tensor_reduce(self, o):
        dst, data = self.view(o["dst"]), self.view(o["data"])
        f = REDUCE.get(o["op"])
        if f is None:
            raise SimulatorError(f"tensor_reduce op={o['op']} is not simulated")
        axes = tuple(sorted(a % data.ndim for a in o.get("axis", list(range(1, data.ndim)))))
        shape, negate = dst.shape, bool(o.get("negate", False))
        if negate:
            return lambda: np.negative(f(data, axis=axes).reshape(shape), out=dst)
        return lambda: np.copyto(dst, f(data, axis=axes).reshape(shape))

    def op_nc_matmul(self, o):
        dst, st, mv = self.view(o["dst"]), self.view(o["stationary"]), self.view(o["moving"])
        if o.get("is_transpose") or o.get("perf_mode", "none") != "none" or "tile_position" in o:
            raise SimulatorError("nc_matmul with is_transpose, perf_mode or tiling is not simulated")
        if not isinstance(o.get("accumulate"), bool):
            raise SimulatorError("nc_matmul without an explicit accumulate is not simulated")
        stT = st.reshape(st.shape[0], -1).T
        mv2 = mv.reshape(mv.shape[0], -1)
        if o["accumulate"]:
            return lambda: np.add(dst, np.matmul(stT, mv2), out=dst)
        return lambda: np.matmul(stT, mv2, out=dst)


def simulate(text, inputs):
    """Reads, decodes and runs `text` on `inputs` ({name: ndarray}): ({name: output}, timings in s)."""
    t0 = time.perf_counter()
    prog = read_program(text)
    t1 = time.perf_counter()
    sim = Simulator(prog, inputs)
    steps = sim.steps()
    t2 = time.perf_counter()
    with np.errstate(all="ignore"):
        for step in steps:
            step()
    t3 = time.perf_counter()
    return sim.outputs(), {"read": t1 - t0, "decode": t2 - t1, "run": t3 - t2, "instructions": len(steps)}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("program")
    ap.add_argument("--input", action="append", default=[], metavar="NAME=FILE.npy")
    ap.add_argument("--dump", metavar="DIR")
    args = ap.parse_args(argv)
    with open(args.program) as f:
        text = f.read()
    inputs = {}
    for item in args.input:
        name, _, path = item.partition("=")
        inputs[name] = np.load(path)
    outputs, times = simulate(text, inputs)
    if args.dump:
        os.makedirs(args.dump, exist_ok=True)
        for name, a in outputs.items():
            np.save(os.path.join(args.dump, name + ".npy"), a)
    print(" ".join(f"{k}={v:.4f}" if isinstance(v, float) else f"{k}={v}" for k, v in times.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
