#!/usr/bin/python3
"""A NumPy functional simulator of the nisa machine, written to be fast: the yardstick
that scripts/bench compares nisa with.

It is what one would write to simulate NKI programs in NumPy: every declared
tensor is one ndarray (float dtypes held as float32 values already rounded to
their dtype, bf16 by float32 bit rounding; integer dtypes as their NumPy
type); each instruction is decoded once into a closure over NumPy views of its
operands, and running the program calls those closures, one vectorised NumPy
expression per instruction. Reductions use NumPy's own order (np.sum is
pairwise), so add-reductions differ from nisa's left-to-right float32 sum by
rounding only.

It leaves out what the benchmarks do not need: no --strict hazard tracking, no
aliasing tensors (`@ OFFSET`), no fp8/tf32 dtypes. The program text is read with
the reference model's reader (tests/reference/nasm_reader.py; it expands .rept),
outside the timed part.

The semantics of record are the reference model's (tests/reference/nki_ref.py,
one function per instruction, also behind the random differential tests): an
instruction, or a form of one, that has no fast closure below (an operator
missing from the tables here, iota's pattern, tensor_reduce's axis, an access
pattern operand, any instruction added to the spec later) runs nki_ref's
function on this simulator's arrays (ReferenceAdapter). A fast closure is only
a speed-up of it; scripts/bench checks every one against nisa.

    numpy_model.py PROG.nasm --dump DIR      prints {"instructions": N, "seconds": S, "cpu_seconds": C, ...}
"""
import argparse
import json
import os
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "reference"))
import nasm_reader  # noqa: E402
import nki_ref  # noqa: E402
import ref_dtypes  # noqa: E402

F32 = np.float32
INT_TYPES = {"i8": np.int8, "i16": np.int16, "i32": np.int32, "u8": np.uint8, "u16": np.uint16, "u32": np.uint32}
FLOAT_TYPES = ("f32", "bf16", "f16")


def round_bf16(x):
    """float32 -> nearest-even bf16, kept as float32 (S2.2); NaN stays NaN."""
    bits = x.view(np.uint32)
    rounded = ((bits + np.uint32(0x7FFF) + ((bits >> np.uint32(16)) & np.uint32(1))) & np.uint32(0xFFFF0000)).view(F32)
    return np.where(np.isnan(x), x, rounded)


def converter(dtype):
    """float32 values -> what a tensor of `dtype` stores (S2.2, S2.3)."""
    if dtype == "f32":
        return lambda v: v
    if dtype == "bf16":
        return round_bf16
    if dtype == "f16":
        return lambda v: v.astype(np.float16).astype(F32)
    info = np.iinfo(INT_TYPES[dtype])
    return lambda v: np.clip(np.nan_to_num(np.rint(v), nan=0.0), info.min, info.max).astype(INT_TYPES[dtype])


ACT = {
    "copy": lambda x, a: x, "identity": lambda x, a: x, "exp": lambda x, a: np.exp(x), "log": lambda x, a: np.log(x),
    "tanh": lambda x, a: np.tanh(x), "sigmoid": lambda x, a: 1 / (1 + np.exp(-x)), "relu": lambda x, a: np.maximum(x, 0),
    "gelu_apprx_sigmoid": lambda x, a: x / (1 + np.exp(F32(-1.702) * x)), "silu": lambda x, a: x / (1 + np.exp(-x)),
    "square": lambda x, a: x * x, "sqrt": lambda x, a: np.sqrt(x), "rsqrt": lambda x, a: 1 / np.sqrt(x),
    "reciprocal": lambda x, a: 1 / x, "sin": lambda x, a: np.sin(x), "arctan": lambda x, a: np.arctan(x),
    "softplus": lambda x, a: np.logaddexp(F32(0), x), "abs": lambda x, a: np.abs(x), "sign": lambda x, a: np.sign(x),
    "prelu": lambda x, a: np.where(x >= 0, x, a * x),
}
ALU = {"add": np.add, "subtract": np.subtract, "multiply": np.multiply, "maximum": np.maximum, "minimum": np.minimum}
CMP = {"equal": np.equal, "not_equal": np.not_equal, "less": np.less, "less_equal": np.less_equal,
       "greater": np.greater, "greater_equal": np.greater_equal}
IDENTITY = {"maximum": -np.inf, "minimum": np.inf, "add": 0.0, "abs_max": 0.0, "abs_min": np.inf}
REDUCE = {"add": lambda v: np.sum(v, axis=1, dtype=F32), "maximum": lambda v: np.max(v, axis=1),
          "minimum": lambda v: np.min(v, axis=1), "abs_max": lambda v: np.max(np.abs(v), axis=1),
          "abs_min": lambda v: np.min(np.abs(v), axis=1)}
COMBINE = {"add": np.add, "maximum": np.maximum, "minimum": np.minimum,
           "abs_max": lambda a, b: np.maximum(np.abs(a), np.abs(b)),
           "abs_min": lambda a, b: np.minimum(np.abs(a), np.abs(b))}


class NoFastForm(Exception):
    """The instruction's operands need a form the fast closures do not cover."""


class ReferenceAdapter:
    """The machine interface nki_ref's instruction functions use (ref_machine.Machine's
    read/write of views, columns, accumulators) over a Simulator's arrays. No
    --strict tracking: the hazard notes are dropped."""

    def __init__(self, sim):
        self.sim, self.prog, self.acc = sim, sim.prog, sim.acc
        self.lane_state = {e: np.full(128, nki_ref.LANE_OK) for e in self.acc}
        self.line = 0

    def dtype(self, view):
        return self.prog.decls[view.name].dtype

    @staticmethod
    def partitions(view):
        return view.part_count

    @staticmethod
    def lanes(view):
        return np.arange(view.part_start, view.part_start + view.part_count)

    def read_raw(self, view, check=True):
        values = self.sim.arrays[view.name].reshape(-1)[view.flat_index()].reshape(view.part_count, -1)
        dtype = self.dtype(view)
        return ref_dtypes.encode(dtype, values) if dtype in FLOAT_TYPES else values.astype(ref_dtypes.raw_dtype(dtype))

    def write_raw(self, view, raw, written=None):
        dtype, target = self.dtype(view), self.sim.arrays[view.name]
        raw = np.asarray(raw).reshape(-1)
        values = ref_dtypes.decode(dtype, raw) if dtype in FLOAT_TYPES else raw.astype(target.dtype)
        index = view.flat_index().reshape(-1)
        flat = target.reshape(-1)  # a view: the arrays are contiguous
        if written is None:
            flat[index] = values
        else:
            keep = np.asarray(written).reshape(-1)
            flat[index[keep]] = values[keep]

    def read(self, view):
        return ref_dtypes.decode(self.dtype(view), self.read_raw(view))

    def write(self, view, values_f32, written=None):
        self.write_raw(view, ref_dtypes.encode(self.dtype(view), values_f32), written)

    def column(self, operand, partitions, used=True):
        if hasattr(operand, "dims"):
            return self.read(operand).reshape(partitions, 1)
        return np.full((partitions, 1), F32(operand), dtype=F32)

    def unwritten(self, view, rows=None):
        return np.zeros((view.part_count if rows is None else len(rows), 1), dtype=bool)

    def check_written(self, view, rows=None):
        pass

    def note_hazard(self, reason):
        pass

    def note_ambiguous(self, reason):
        pass


class Simulator:
    def __init__(self, prog, fast=True):
        """fast=False: every instruction runs the reference model's function."""
        self.prog, self.fast = prog, fast
        self.arrays = {}
        if prog.cores > 1:  # one machine here; tests/reference/multicore.py models several
            raise ValueError(f"a program for {prog.cores} cores is not modeled")
        for d in prog.decls.values():
            if d.offset is not None:
                raise ValueError(f"{d.name}: aliasing (@ OFFSET) is not modeled")
            if d.dtype in FLOAT_TYPES:
                a = np.zeros(d.shape, dtype=F32)
                if d.init == "iota":
                    a[...] = converter(d.dtype)(np.arange(a.size, dtype=np.float64).astype(F32)).reshape(d.shape)
                elif d.init is not None:
                    a[...] = converter(d.dtype)(np.array([d.init], dtype=F32))[0]
            elif d.dtype in INT_TYPES:
                a = np.zeros(d.shape, dtype=INT_TYPES[d.dtype])
                if d.init == "iota":
                    a[...] = np.arange(a.size).reshape(d.shape)
                elif d.init is not None:
                    a[...] = int(d.init)
            else:
                raise ValueError(f"{d.name}: dtype {d.dtype} is not modeled")
            self.arrays[d.name] = a
        # S1.3: Vector accumulator starts at -inf, Scalar at 0; one lane per physical partition.
        self.acc = {"vector": np.full(128, -np.inf, dtype=F32), "scalar": np.zeros(128, dtype=F32)}
        self.reference = ReferenceAdapter(self)

    def decode(self, ins):
        """The instruction as a closure: its fast form, else the reference model's function."""
        fast = getattr(self, ins.mnemonic, None) if self.fast else None
        if fast is not None and all(getattr(v, "dims", 0) is not None for v in ins.ops.values()):
            try:
                return fast(ins.ops)
            except (KeyError, NoFastForm):
                pass
        semantics, ops = nki_ref.SEMANTICS[ins.mnemonic], ins.ops
        return lambda: semantics(self.reference, ops)

    # ---- operands, resolved once per instruction ----

    def view(self, v):
        """The NumPy view of a tensor operand (basic slicing: no copy)."""
        return self.arrays[v.name][tuple(slice(a, a + n * s, s) for a, n, s in v.dims)]

    def dtype(self, v):
        return self.prog.decls[v.name].dtype

    def reader(self, v):
        """() -> the operand as float32 [P, elements]."""
        a = self.view(v)
        p = a.shape[0]
        if a.dtype == F32:
            return lambda: a.reshape(p, -1)
        return lambda: a.reshape(p, -1).astype(F32)

    def writer(self, v):
        """(float32 [P, elements]) -> stored, converted to the tensor's dtype."""
        a, conv = self.view(v), converter(self.dtype(v))
        return lambda values: np.copyto(a, conv(values).reshape(a.shape))

    def column(self, x, p):
        """() -> a scalar, or a [P, 1] tile as a float32 column."""
        if isinstance(x, nasm_reader.View):
            col = self.reader(x)
            return lambda: col().reshape(p, 1)
        value = F32(x)
        return lambda: value

    def accumulate(self, engine, v, cmd, op, reduce_res):
        """S3: () -> updates the accumulator lanes of view `v` with this instruction's reduction."""
        lanes = slice(v.dims[0][0], v.dims[0][0] + v.dims[0][1])
        acc, ident, combine, reduce = self.acc[engine], F32(IDENTITY[op]), COMBINE[op], REDUCE[op]
        out = self.writer(reduce_res) if reduce_res is not None else None
        reset, fold = cmd in ("reset", "reset_reduce"), cmd in ("reset_reduce", "reduce")

        def run(values):
            if reset:
                acc[lanes] = ident
            if fold:
                acc[lanes] = combine(acc[lanes], reduce(values))
            if out is not None:
                out(acc[lanes].reshape(-1, 1))
        return run

    # ---- instructions: decode -> closure ----

    def dma_copy(self, o):
        dst, src = self.view(o["dst"]), self.view(o["src"])
        return lambda: np.copyto(dst, src.reshape(dst.shape))

    def memset(self, o):
        dst = self.view(o["dst"])
        value = converter(self.dtype(o["dst"]))(np.array([o["value"]], dtype=F32))[0]
        return lambda: dst.fill(value)

    def iota(self, o):
        if "pattern" in o:
            raise NoFastForm
        o = {"base": 0, "partition_step": 0, "free_step": 1, **o}  # 1 when absent (isa.json: no spec defaults)
        dst = self.view(o["dst"])
        p, n = dst.shape[0], dst.size // dst.shape[0]
        rows, cols = np.arange(p).reshape(-1, 1), np.arange(n).reshape(1, -1)
        if self.dtype(o["dst"]) in FLOAT_TYPES:
            b, ps, fs = (float(F32(o[k])) for k in ("base", "partition_step", "free_step"))
            vals = converter(self.dtype(o["dst"]))((b + rows * ps + cols * fs).astype(F32))
        else:
            info = np.iinfo(dst.dtype)
            b, ps, fs = (int(o[k]) for k in ("base", "partition_step", "free_step"))
            vals = np.clip(b + rows * ps + cols * fs, info.min, info.max)
        return lambda: np.copyto(dst, vals.reshape(dst.shape).astype(dst.dtype))

    def nonzero_with_count(self, o):
        """S4.1: only partitions 16k are read and written."""
        src, dst = self.view(o["src"]), self.view(o["dst"])
        p0, t = o["src"].dims[0][0], src.size // src.shape[0]
        rows = [r for r in range(src.shape[0]) if (p0 + r) % 16 == 0]
        src2, dst2 = src.reshape(src.shape[0], -1), dst.reshape(dst.shape[0], -1)
        off, pad = o["index_offset"], o["padding_val"]

        def run():
            for r in rows:
                nz = np.flatnonzero(src2[r])
                out = np.full(t + 1, pad, dtype=np.int32)
                out[: nz.size] = nz + off
                out[t] = nz.size
                dst2[r] = out
        return run

    def tensor_copy_predicated(self, o):
        dst = self.view(o["dst"])
        pred = self.view(o["predicate"]).reshape(dst.shape)
        rev = o["reverse_pred"]
        if isinstance(o["src"], nasm_reader.View):
            src = self.view(o["src"]).reshape(dst.shape)
        else:
            src = converter(self.dtype(o["dst"]))(np.array([o["src"]], dtype=F32))[0]
        if rev:
            return lambda: np.copyto(dst, src, where=pred == 0)
        return lambda: np.copyto(dst, src, where=pred != 0)

    def select_reduce(self, o):
        on_true, pred = self.reader(o["on_true"]), self.view(o["predicate"])
        p = pred.shape[0]
        pred2 = pred.reshape(p, -1)
        on_false, rev = self.column(o["on_false"], p), o["reverse_pred"]
        write = self.writer(o["dst"])
        acc = self.accumulate("vector", o["on_true"], o["reduce_cmd"], o["reduce_op"], o.get("reduce_res"))

        def run():
            mask = (pred2 == 0) if rev else (pred2 != 0)
            result = np.where(mask, on_true(), on_false())
            write(result)
            acc(result)
        return run

    def range_select(self, o):
        """The NumPy form of S4.4."""
        x = self.reader(o["on_true_tile"])
        p = x().shape[0]
        idx = (o["range_start"] + np.arange(x().shape[1])).astype(F32).reshape(1, -1)
        b0, b1 = self.column(o["bound0"], p), self.column(o["bound1"], p)
        c0, c1 = CMP[o["comp_op0"]], CMP[o["comp_op1"]]
        fill = F32(o["on_false_value"])
        write = self.writer(o["dst"])
        acc = self.accumulate("vector", o["on_true_tile"], o["reduce_cmd"], o["reduce_op"], o.get("reduce_res"))

        def run():
            result = np.where(c0(idx, b0()) & c1(idx, b1()), x(), fill)
            write(result)
            acc(result)
        return run

    def activation(self, o):
        data = self.reader(o["data"])
        p = data().shape[0]
        scale, bias = self.column(o["scale"], p), self.column(o.get("bias", 0.0), p)
        f, write = ACT[o["op"]], self.writer(o["dst"])
        acc = self.accumulate("scalar", o["data"], o["reduce_cmd"], o.get("reduce_op", "add"), o.get("reduce_res"))

        def run():
            result = f(data() * scale() + bias(), F32(0))
            write(result)
            acc(result)
        return run

    def stage(self, op, operand, reverse, p):
        """One tensor-scalar ALU stage in float32: v -> op(v, x) (or op(x, v))."""
        if op == "bypass":
            return lambda v: v
        x, f = self.column(operand, p), ALU[op]
        return (lambda v: f(x(), v)) if reverse else (lambda v: f(v, x()))

    def activate2(self, o):
        data = self.reader(o["data"])
        p = data().shape[0]
        s0 = self.stage(o["op0"], o["imm0"], o["reverse0"], p)
        s1 = self.stage(o["op1"], o["imm1"], o["reverse1"], p)
        relu, f, write = self.column(o["relu_param"], p), ACT[o["op"]], self.writer(o["dst"])
        acc = self.accumulate("scalar", o["data"], o["reduce_cmd"], o.get("reduce_op", "add"), o.get("reduce_res"))

        def run():
            result = f(s1(s0(data())), relu())
            write(result)
            acc(result)
        return run

    def tensor_scalar(self, o):
        data = self.reader(o["data"])
        p = data().shape[0]
        s0 = self.stage(o["op0"], o["operand0"], o["reverse0"], p)
        s1 = self.stage(o["op1"], o.get("operand1"), o["reverse1"], p)
        write = self.writer(o["dst"])
        return lambda: write(s1(s0(data())))

    def tensor_tensor(self, o):
        a, b, f, write = self.reader(o["data1"]), self.reader(o["data2"]), ALU[o["op"]], self.writer(o["dst"])
        return lambda: write(f(a(), b()))

    def tensor_reduce(self, o):
        if "axis" in o:
            raise NoFastForm
        data, reduce, write = self.reader(o["data"]), REDUCE[o["op"]], self.writer(o["dst"])
        sign = F32(-1) if o["negate"] else F32(1)
        return lambda: write((sign * reduce(data())).reshape(-1, 1))

    def outputs(self):
        out = {}
        for d in self.prog.decls.values():
            if d.memory == "hbm" and d.role in ("output", "inout"):
                a = self.arrays[d.name]
                out[d.name] = a.astype(np.float16) if d.dtype == "f16" else a
        return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("program")
    ap.add_argument("--dump", metavar="DIR", help="write each output HBM tensor as DIR/NAME.npy")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    with open(args.program) as f:
        prog = nasm_reader.read_program(f.read())
    sim = Simulator(prog)
    t1 = time.perf_counter()
    steps = [sim.decode(ins) for ins in prog.instrs]
    t2, c2 = time.perf_counter(), time.process_time()
    with np.errstate(all="ignore"):
        for step in steps:
            step()
    t3, c3 = time.perf_counter(), time.process_time()
    if args.dump:
        os.makedirs(args.dump, exist_ok=True)
        for name, arr in sim.outputs().items():
            np.save(os.path.join(args.dump, name + ".npy"), arr)
    print(json.dumps({"instructions": len(steps), "seconds": t3 - t2, "cpu_seconds": c3 - c2, "decode_seconds": t2 - t1,
                      "read_seconds": t1 - t0}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
