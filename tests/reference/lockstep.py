#!/usr/bin/python3
"""Lockstep differential (issue 26): nisa and the NumPy model run the same random
program and are compared after EVERY instruction, bit for bit; a program with
runtime loops (SEMANTICS S17.2) after every executed position, nisa's position
each time the one the model's own walk (ref_loops.Walk) runs next.

    lockstep.py --count N --seed S [--first K] [--coverage-out FILE] [--verbose]
    lockstep.py --check-coverage FILE... [--min 200]

nisa runs in process (_nisa.lockstep: one step per position, no dead-store
skipping, no second thread) and calls back after each instruction with
zero-copy views of its state; the model (nki_ref.py) then executes the same
instruction on its own machine and the two states are compared: SBUF and PSUM
bytes (the model's machine takes nisa's placement of the SBUF/PSUM tensors, so
the two memories have one layout), every HBM tensor's bytes,
both accumulators, the random generators' states (S11.5) and the sequencer
registers (S17.1: which are set, and their values). A register instruction's
result is the register it writes; a loop instruction's, the branch into its
body (a fori_loop or while_loop entering it, an end_loop going back), which
the coverage counts as its nonzero instances.

Budget (docs/SEMANTICS.md): 0 ulp, that is the same bits, for everything
except what S5 leaves to the implementation: the transcendental activation
functions (every S5 function but copy/identity, square, relu, prelu, abs,
sign, reciprocal and sqrt, which are exact float32 operations) of
`activation`, `activate2`, `activation_reduce` and `exponential` may differ
by ref_common.ACTIVATION_ULP ulp in what those instructions write (dst, the
Scalar or Vector accumulator and reduce_res). Each instruction's budget is
its module's ULP_BUDGET (instructions/<name>.py; absent: 0). A difference within the budget is counted
and the model then takes nisa's bytes, so the next instruction starts from one
state. Everything else, sums included (S3, S4.28, S8.3, S12.1 fix their
order), must agree in every bit: NaN payloads and the sign of zero too.

On the first difference it prints the instruction (position, line, source
text), where the states differ (memory, tensor, element index), both values
in hex and decimal, the ulp distance and the command that reproduces it, and
exits 1. At the end it prints a coverage table: per instruction, the executed
instances and those compared with a nonzero result.
"""
import argparse
import collections
import json
import os
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)
import gen_programs  # noqa: E402
import instructions  # noqa: E402
import nasm_reader  # noqa: E402
import nki_ref  # noqa: E402
import ref_dtypes  # noqa: E402
from ref_loops import Walk  # noqa: E402
from ref_machine import Machine  # noqa: E402

# The programs the lockstep runs: the random blocks of gen_programs, weighted so that
# every instruction of the spec is executed with nonzero results a few hundred times
# across the ctest shards, and more of them per program (one model and one nisa set-up
# per program). trn3 (v4) more often: rand2, quantize_mx, nc_matmul_mx, exponential need it.
LOCKSTEP_MIX = gen_programs.Mix(
    archs=[("trn1", 0.05), ("inf2", 0.05), ("trn2", 0.3), ("trn3", 0.6)],
    # the blocks of several instructions, which other blocks' loads, stores and chains also
    # give; each instruction's own blocks carry their lockstep weight (instructions/<name>.py)
    weights={"block_dma": 0.2, "block_rept": 0.3, "block_alias": 0.2, "block_psum_wide": 0.1, "block_overwrite": 0.3,
             "block_vector_acc": 0.5, "block_scalar_acc": 0.6, "block_vector_chain": 0.4, "block_scalar_chain": 0.4,
             **instructions.lockstep_weights()},
    blocks=(15, 21))  # one more since issue 29 added the register and loop blocks


# The instructions with a written operand that may be in HBM (the spec's timeline
# written_operands and operand memories): dma_copy and dma_compute.
_WRITTEN = set(nasm_reader.SPEC["cost"]["timeline"]["written_operands"])
HBM_WRITERS = {i["name"] for i in nasm_reader.SPEC["instructions"]
               if any(o["name"] in _WRITTEN and "hbm" in o.get("memories", ()) for o in i["operands"])}


class LockstepMachine(Machine):
    """The model's machine, noting what each instruction writes (for the coverage count)."""

    def begin(self):
        self.wrote_nonzero = False
        self.wrote_any = False

    def write_raw(self, view, raw, written=None):
        super().write_raw(view, raw, written)
        values = np.asarray(raw).reshape(view.part_count, -1)
        mask = None if written is None else np.asarray(written).reshape(values.shape)
        self._note(self.decl(view).dtype, values, mask)

    def _store_tensor_raw(self, decl, raw):
        super()._store_tensor_raw(decl, raw)
        if decl.memory == "hbm":  # dma scatters write HBM directly; write_raw's own call is counted there
            self._note(decl.dtype, np.asarray(raw), None)

    def write_register(self, name, value):
        """A register's write is an instruction's result (S17.1): nonzero when its value is."""
        super().write_register(name, value)
        if hasattr(self, "wrote_any"):
            self.wrote_any = True
            self.wrote_nonzero |= self.registers[name] != 0

    def _note(self, dtype, raw, mask):
        if not hasattr(self, "wrote_any"):  # loading the inputs
            return
        self.wrote_any = True
        raw = np.ascontiguousarray(raw)
        if ref_dtypes.is_float(dtype) and not dtype.endswith("_x4"):
            values = ref_dtypes.decode(dtype, raw)
            nonzero = (values != 0) | np.isnan(values)
        else:
            nonzero = raw != 0
        if mask is not None:
            nonzero = nonzero & np.asarray(mask).reshape(nonzero.shape)
        if np.any(nonzero):
            self.wrote_nonzero = True


# Instructions that copy bits (S2.1, S4.2, S4.7, S4.21, S8.1, S8.4, S11) say so in their
# module (KEEPS_NAN_PAYLOAD): a NaN keeps its payload. Elsewhere a NaN result is a NaN:
# arithmetic and conversions propagate NaN (S2.1, S2.2) without saying which payload, so
# NaN against NaN passes there.
keeps_nan_payload = instructions.keeps_nan_payload

# S2.1: "the sign of a zero produced by maximum/minimum is not specified": an instruction
# with such an operator (or reduction, the Vector accumulator's of select_reduce and
# range_select included: their modules' ZERO_SIGN_OPEN) may give +0 where the model has -0
# and the other way round.
MAX_MIN = {"maximum", "minimum", "relu"}  # relu is max(x, 0) (S2.5, S5)


def zero_sign_open(ins):
    if instructions.zero_sign_open_always(ins):
        return True
    return any(isinstance(v, str) and v in MAX_MIN for v in ins.ops.values())


# ulp allowed for an instruction's results (module docstring): its module's ULP_BUDGET, else 0
budget_of = instructions.ulp_budget


# ---- values and ulp distances ----

FLOAT_LAYOUT = {"f32": (32, 8), "tf32": (32, 8), "bf16": (16, 8), "f16": (16, 5), "fp8e4m3": (8, 4),
                "fp8e4m3fn": (8, 4), "fp8e5m2": (8, 5)}  # sign-magnitude floats: (bits, exponent bits)


def nan_mask(dtype, bits):
    if dtype == "fp8e4m3fn":
        return bits & 0x7F == 0x7F
    if dtype == "fp8e8m0":
        return bits == 0xFF
    if dtype not in FLOAT_LAYOUT:
        return np.zeros(bits.shape, dtype=bool)
    width, ebits = FLOAT_LAYOUT[dtype]
    mbits = width - 1 - ebits
    return ((bits >> mbits) & ((1 << ebits) - 1) == (1 << ebits) - 1) & (bits & ((1 << mbits) - 1) != 0)


def zero_mask(dtype, bits):
    if dtype not in FLOAT_LAYOUT:
        return np.zeros(bits.shape, dtype=bool)
    return bits & ((1 << (FLOAT_LAYOUT[dtype][0] - 1)) - 1) == 0


def ulps(dtype, a, b):
    """Distance in ulp (floats: sign-magnitude patterns in value order, -0 just below +0;
    others: the difference of the unsigned patterns)."""
    if dtype not in FLOAT_LAYOUT:
        return np.abs(a - b)
    sign = 1 << (FLOAT_LAYOUT[dtype][0] - 1)

    def order(x):
        return np.where(x & sign, -(x & (sign - 1)) - 1, x)
    return np.abs(order(a) - order(b))


def show(dtype, bits):
    """An element's pattern as 'hex (decimal)'."""
    size = ref_dtypes.itemsize(dtype) if dtype in ref_dtypes.DTYPES else 1
    raw = np.array([bits], dtype=f"u{size}").view(ref_dtypes.raw_dtype(dtype) if dtype in ref_dtypes.DTYPES else "u1")
    if dtype.endswith("_x4"):
        value = f"packed {dtype}"
    elif ref_dtypes.is_float(dtype):
        value = repr(float(ref_dtypes.decode(dtype, raw)[0]))
    else:
        value = str(int(raw[0]))
    return f"0x{int(bits):0{2 * size}x} ({value})"


class Divergence(Exception):
    pass


class Diff:
    """The differing elements of one place (a tensor, an accumulator, a generator state):
    their indices and both bit patterns (int64 arrays)."""

    def __init__(self, where, dtype, shape, flat, nisa_bits, model_bits):
        self.where, self.dtype, self.shape = where, dtype, shape
        self.flat, self.nisa, self.model = flat, nisa_bits.astype(np.int64), model_bits.astype(np.int64)
        self.nan = nan_mask(dtype, self.nisa) | nan_mask(dtype, self.model)
        self.both_nan = nan_mask(dtype, self.nisa) & nan_mask(dtype, self.model)
        self.both_zero = zero_mask(dtype, self.nisa) & zero_mask(dtype, self.model)
        self.ulp = ulps(dtype, self.nisa, self.model)

    def text(self, k):
        index = ", ".join(str(int(i)) for i in np.unravel_index(int(self.flat[k]), self.shape))
        if self.nan[k]:
            distance = "NaN involved"
        elif self.dtype in FLOAT_LAYOUT:
            distance = f"{int(self.ulp[k])} ulp"
        else:
            distance = f"difference {int(self.ulp[k])}"
        return (f"{self.where} [{index}]: nisa {show(self.dtype, self.nisa[k])}, "
                f"model {show(self.dtype, self.model[k])}: {distance}")


def raw_diff(where, dtype, shape, nisa_raw, model_raw):
    """A Diff of two raw arrays of one dtype and shape, or None when they are equal."""
    size = np.asarray(model_raw).dtype.itemsize
    a = np.ascontiguousarray(nisa_raw).reshape(-1).view(f"u{size}")
    b = np.ascontiguousarray(model_raw).reshape(-1).view(f"u{size}")
    flat = np.nonzero(a != b)[0]
    if flat.size == 0:
        return None
    return Diff(where, dtype, shape, flat, a[flat], b[flat])


# ---- the comparison ----

class Lockstep:
    def __init__(self, text, inputs, nisa_module):
        self.text = text
        self.lines = text.split("\n")
        self.prog = nasm_reader.read_program(text)
        self.model_inputs = inputs
        self.m = None  # made at the first step, with nisa's placement of the tiles
        self.nisa = nisa_module
        self.native = nisa_module.assemble(text, file="prog.nasm")
        self.inputs = nisa_module._inputs(inputs, "prog.nasm")
        self.by_memory = collections.defaultdict(list)
        for d in self.prog.decls.values():
            if d.memory != "hbm":
                self.by_memory[d.memory].append(d)
        self.executed = collections.Counter()
        self.nonzero = collections.Counter()
        self.tolerated = collections.Counter()  # instances within a nonzero budget
        self.max_ulp = collections.Counter()
        self.nan_payloads = collections.Counter()  # instances whose NaNs differ only in payload (allowed)
        self.zero_signs = collections.Counter()  # instances whose max/min zeros differ in sign (allowed)

    def run(self):
        return self.nisa._native(self.nisa._nisa.lockstep, self.native._native, self.inputs, self.step)

    # called by nisa before the first instruction (position -1) and after each
    def step(self, position, line, state):
        if position < 0:  # the inputs bound, before the first instruction
            return self.start(state)
        m = self.m
        expected = self.next_position()
        if expected != position:
            raise Divergence(f"nisa runs position {position} (line {line}), the model's walk "
                             + (f"position {expected} (line {self.prog.instrs[expected].line})"
                                if expected is not None else "has finished") + " (S17.2)")
        ins = self.prog.instrs[position]
        if ins.line != line:
            raise Divergence(f"position {position}: nisa runs line {line}, the model line {ins.line}")
        if self.walk.entered is not None:  # a loop's branch into its body: that loop instruction's result
            self.nonzero[self.prog.instrs[self.walk.entered].mnemonic] += 1
        m.begin()  # after the walk: a fori_loop's var, set as an iteration starts, is no instruction's result
        m.line = ins.line
        try:
            nki_ref.SEMANTICS[ins.mnemonic](m, ins.ops)
        except Exception as e:
            raise Divergence(f"the model fails on position {position} (line {line}, {ins.mnemonic}): "
                             f"{type(e).__name__}: {e}") from e
        diffs = self.differences(state, self.hbm_written(ins))
        model_printed = "".join(m.printed)
        m.printed.clear()
        if state["printed"] != model_printed:  # device_print (S15.1): the text, exactly
            raise Divergence(f"position {position} (line {line}, {ins.mnemonic}): nisa printed\n{state['printed']}"
                             f"the model printed\n{model_printed}")
        self.executed[ins.mnemonic] += 1
        if diffs:
            self.judge(position, ins, diffs)
            self.adopt(state)
        if m.wrote_nonzero or (not m.wrote_any and self.state_nonzero(ins, state)):
            self.nonzero[ins.mnemonic] += 1

    def next_position(self):
        """The model's next position (ref_loops.Walk), None when its program has finished."""
        try:
            return next(self.walk, None)
        except Exception as e:
            raise Divergence(f"the model's walk fails: {type(e).__name__}: {e}") from e

    def judge(self, position, ins, diffs):
        """Raises Divergence unless every difference is allowed (module docstring)."""
        budget = budget_of(ins)
        payload_free = not keeps_nan_payload(self.prog, ins)
        zero_free = zero_sign_open(ins)
        worst, kinds, bad = 0, set(), []
        for d in diffs:
            ok = np.zeros(d.flat.shape, dtype=bool)
            if payload_free:
                ok |= d.both_nan
                if d.both_nan.any():
                    kinds.add("nan")
            if zero_free:
                ok |= d.both_zero
                if d.both_zero.any():
                    kinds.add("zero")
            if budget and d.dtype in FLOAT_LAYOUT:
                near = ~d.nan & (d.ulp <= budget) & ~ok
                if near.any():
                    kinds.add("ulp")
                    worst = max(worst, int(d.ulp[near].max()))
                ok |= near
            if not ok.all():
                bad.append((d, np.nonzero(~ok)[0]))
        if bad:
            raise Divergence(self.report(position, ins, bad, budget))
        self.nan_payloads[ins.mnemonic] += "nan" in kinds
        self.zero_signs[ins.mnemonic] += "zero" in kinds
        if "ulp" in kinds:
            self.tolerated[ins.mnemonic] += 1
            self.max_ulp[ins.mnemonic] = max(self.max_ulp[ins.mnemonic], worst)

    def hbm_written(self, ins):
        """The HBM tensors compared after `ins`: only DMA writes HBM (S1.6), and then those of
        its operands (a dma_copy dst, dma_compute's dst and srcs: HBM_WRITERS). Every HBM tensor is compared
        once more after the last instruction (final_check)."""
        if ins.mnemonic not in HBM_WRITERS:
            return ()
        names = {v.name for v in ins.ops.values() if hasattr(v, "dims")}
        names |= {v.name for v in ins.ops.get("srcs", ()) if hasattr(v, "dims")}
        return [n for n in names if n in self.m.hbm]

    def start(self, state):
        """The model's machine with nisa's placement of the tiles, its inputs compared with
        nisa's: the float32 arrays of bf16, tf32 and fp8 inputs are rounded by S2.2 on both
        sides (a NaN's payload is not specified there, so it is taken from nisa)."""
        self.m = LockstepMachine(self.prog, offsets=state["offsets"])
        self.m.load_inputs(self.model_inputs)
        self.walk = Walk(self.prog.instrs, self.m)
        diffs = self.differences(state)
        bad = [d for d in diffs if not d.both_nan.all()]
        if bad:
            d = bad[0]
            k = int(np.nonzero(~d.both_nan)[0][0])
            raise Divergence(f"inputs differ before the first instruction (S2.2 rounding of float32 arrays): "
                             f"{d.text(k)}")
        if diffs:
            self.adopt(state)

    @staticmethod
    def state_nonzero(ins, state):
        """An instruction that writes no memory (set_rng_seed, rand_set_state): its result is the
        state; device_print's is its text."""
        if ins.mnemonic in ("set_rng_seed", "rand_set_state"):
            return bool(np.any(state["vector_rng"])) or bool(np.any(state["gpsimd_rng"]))
        if ins.mnemonic == "device_print":
            return bool(state["printed"])
        return False

    def differences(self, state, hbm=None):
        """Diffs of every place where the states differ, [] when they are equal.
        `hbm`: the HBM tensors to compare (default all)."""
        m, found = self.m, []
        for mem in ("sbuf", "psum"):
            ref, got = m.mem[mem], state[mem]
            width = ref.shape[1]
            if not np.array_equal(ref, got[:, :width]):
                found += self.memory_diffs(mem, ref, got[:, :width])
        for name in (m.hbm if hbm is None else hbm):  # bytes() of small arrays: cheaper than array_equal
            raw, got = m.hbm[name], state["hbm"][name]
            if got.tobytes() != raw.tobytes():
                d = self.prog.decls[name]
                found.append(raw_diff(f"hbm tensor {name} ({d.dtype} {list(d.shape)}) element", d.dtype, d.shape,
                                      got.view(raw.dtype), raw))
        for engine in ("vector", "scalar"):
            ref, got = m.acc[engine], state[f"{engine}_accumulator"]
            if ref.tobytes() != got.tobytes():
                found.append(raw_diff(f"{engine} accumulator lane", "f32", (128,), got, ref))
        found += self.register_diffs(state)
        for engine in ("vector", "gpsimd"):
            ref = m.rng[engine].reshape(128, -1).astype(np.uint32)
            got = state[f"{engine}_rng"]
            if ref.tobytes() != got.tobytes():
                found.append(raw_diff(f"{engine} random generator state (lane, word)", "u32", ref.shape, got, ref))
        return found

    def register_diffs(self, state):
        """The sequencer registers (S17.1), by declaration order (nisa's register
        indices): which are set, and the values of those set."""
        names = list(self.prog.registers)
        if not names:
            return []
        got = np.asarray(state["registers"])[:len(names)].astype(np.int64)
        set_bits = int(np.asarray(state["registers_set"])[0])
        nisa_set = np.array([(set_bits >> k) & 1 for k in range(len(names))], dtype=np.int64)
        model_set = np.array([name in self.m.registers for name in names], dtype=np.int64)
        model = np.array([self.m.registers.get(name, 0) for name in names], dtype=np.int64)
        found = []
        if not np.array_equal(nisa_set, model_set):
            found.append(raw_diff(f"registers set ({', '.join(names)})", "u8", (len(names),),
                                  nisa_set.astype(np.uint8), model_set.astype(np.uint8)))
        both = (nisa_set == 1) & (model_set == 1)
        if not np.array_equal(np.where(both, got, 0), np.where(both, model, 0)):
            found.append(raw_diff(f"register values ({', '.join(names)})", "i32", (len(names),),
                                  np.where(both, got, 0).astype(np.int32), np.where(both, model, 0).astype(np.int32)))
        return found

    def memory_diffs(self, mem, ref, got):
        """Per tensor of `mem` (aliases each on their own), and bytes outside every tensor."""
        out = []
        covered = np.zeros(ref.shape, dtype=bool)
        for d in self.by_memory[mem]:
            off, n = self.m.offsets[d.name], self.m.bytes_per_partition(d)
            covered[:d.shape[0], off:off + n] = True
            a, b = got[:d.shape[0], off:off + n], ref[:d.shape[0], off:off + n]
            if np.array_equal(a, b):
                continue
            raw_type = ref_dtypes.raw_dtype(d.dtype)
            diff = raw_diff(f"{mem} tensor {d.name} ({d.dtype} {list(d.shape)}) element", d.dtype, d.shape,
                            np.ascontiguousarray(a).view(raw_type), np.ascontiguousarray(b).view(raw_type))
            out.append(diff)
        stray = (ref != got) & ~covered
        if stray.any():
            out.append(raw_diff(f"{mem} (no tensor there) partition, byte", "u8", ref.shape,
                                np.where(covered, ref, got), ref))
        return out

    def adopt(self, state):
        """Allowed differences: the model continues from nisa's bytes."""
        m = self.m
        for mem in ("sbuf", "psum"):
            m.mem[mem][:] = state[mem][:, :m.mem[mem].shape[1]]
        for name, raw in m.hbm.items():
            m.hbm[name] = state["hbm"][name].view(raw.dtype).reshape(raw.shape).copy()
        for engine in ("vector", "scalar"):
            m.acc[engine][:] = state[f"{engine}_accumulator"]

    def report(self, position, ins, bad, budget):
        text = self.lines[ins.line - 1].strip() if 0 < ins.line <= len(self.lines) else "?"
        count = sum(len(idx) for _, idx in bad)
        d, idx = bad[0]
        lines = [f"first divergence: position {position}, line {ins.line}: {ins.mnemonic} (budget {budget} ulp)",
                 f"  {ins.line} | {text}",
                 f"  {count} differing element(s) beyond the budget; first: {d.text(idx[0])}"]
        lines += [f"    also {d.text(k)}" for k in idx[1:4]]
        lines += [f"    and {d2.text(i2[0])}" for d2, i2 in bad[1:4]]
        return "\n".join(lines)

    def final_check(self, state):
        """After the last instruction: every HBM tensor, and nisa's memory past the model's (the
        model sizes SBUF/PSUM to the tensors) stays zero."""
        left = self.next_position()
        if left is not None:
            raise Divergence(f"nisa has finished, the model's walk still runs position {left} "
                             f"(line {self.prog.instrs[left].line}) (S17.2)")
        diffs = self.differences(state)
        if diffs:
            raise Divergence("after the last instruction (an HBM tensor no DMA operand names):\n  " +
                             "\n  ".join(d.text(0) for d in diffs[:4]))
        for mem in ("sbuf", "psum"):
            width = self.m.mem[mem].shape[1]
            if np.any(state[mem][:, width:]):
                p, b = [int(x[0]) for x in np.nonzero(state[mem][:, width:])]
                raise Divergence(f"nisa wrote {mem} partition {p} byte {width + b}, past every tensor")


def import_nisa():
    build = os.environ.get("NISA_PYTHON_DIR", os.path.join(REPO, "build", "python"))
    if build not in sys.path:
        sys.path.insert(0, build)
    import nisa
    return nisa


def coverage_table(executed, nonzero, tolerated, max_ulp, spec_names, minimum=None):
    """The table, and the instructions short of `minimum` nonzero instances. An
    instruction that meets other cores (its module's MULTI_CORE: the lockstep
    runs one core) is checked by the multi-core test its module names instead."""
    rows = [f"{'instruction':26s} {'executed':>9s} {'nonzero':>9s} {'in budget':>9s} {'max ulp':>8s}"]
    short = []
    for name in spec_names:
        flag = ""
        multi_core = getattr(instructions.MODULES.get(name), "MULTI_CORE", None)
        if minimum is not None and multi_core:
            flag = f"  multi-core: {multi_core.split()[0]}"
        elif minimum is not None and nonzero.get(name, 0) < minimum:
            flag = f"  < {minimum}"
            short.append(name)
        rows.append(f"{name:26s} {executed.get(name, 0):9d} {nonzero.get(name, 0):9d} {tolerated.get(name, 0):9d} "
                    f"{max_ulp.get(name, 0):8d}{flag}")
    return "\n".join(rows), short


def spec_instruction_names():
    return [i["name"] for i in nasm_reader.SPEC["instructions"]]


def check_coverage(files, minimum):
    total = {k: collections.Counter() for k in ("executed", "nonzero", "tolerated")}
    max_ulp = collections.Counter()
    for path in files:
        with open(path) as f:
            data = json.load(f)
        for k in total:
            total[k].update(data[k])
        for name, u in data["max_ulp"].items():
            max_ulp[name] = max(max_ulp[name], u)
    table, short = coverage_table(total["executed"], total["nonzero"], total["tolerated"], max_ulp,
                                  spec_instruction_names(), minimum)
    print(f"lockstep coverage over {len(files)} shard(s): instances executed, compared with a nonzero result, "
          f"within a nonzero ulp budget (transcendental activations), their largest distance")
    print(table)
    if short:
        print(f"{len(short)} instruction(s) compared with nonzero results fewer than {minimum} times: {short}")
        return 1
    print(f"every instruction of the spec compared with nonzero results at least {minimum} times")
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--count", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--first", type=int, default=0, help="index of the first program (to reproduce one)")
    ap.add_argument("--coverage-out", metavar="FILE", help="write this run's coverage counts as JSON")
    ap.add_argument("--check-coverage", nargs="+", metavar="FILE", help="sum the JSON of shards and check --min")
    ap.add_argument("--min", type=int, default=200)
    ap.add_argument("--keep", metavar="DIR", help="write a failing program, its inputs and expected outputs to DIR")
    ap.add_argument("--verbose", action="store_true", help="print the failing program's text")
    args = ap.parse_args(argv)
    if args.check_coverage:
        return check_coverage(args.check_coverage, args.min)

    nisa = import_nisa()
    executed, nonzero, tolerated, max_ulp = (collections.Counter() for _ in range(4))
    started = time.monotonic()
    me = os.path.relpath(os.path.abspath(__file__), REPO)  # the command as run from the repository's root
    for k in range(args.first, args.first + args.count):
        seed = gen_programs.program_seed(args.seed, k)
        text, inputs = gen_programs.build(seed, LOCKSTEP_MIX)
        run = None
        try:
            run = Lockstep(text, inputs, nisa)
            state = run.run()
            run.final_check(state)
        except (Divergence, nisa.Error) as e:
            print(f"program {k} (generator seed {seed}): {e}")
            print(f"reproduce: {me} --seed {args.seed} --first {k} --count 1 --verbose")
            if args.verbose:
                print(f"---- program {k}\n{text}")
            if args.keep:
                expected = None
                try:
                    expected, _ = nki_ref.run_program(text, inputs)
                except Exception:  # noqa: BLE001 (the model's own failure is reported above)
                    pass
                gen_programs.write_program(os.path.join(args.keep, f"prog_{k}"), text, inputs, expected or {}, {})
                print(f"kept in {os.path.join(args.keep, f'prog_{k}')}")
            return 1
        executed.update(run.executed)
        nonzero.update(run.nonzero)
        tolerated.update(run.tolerated)
        for name, u in run.max_ulp.items():
            max_ulp[name] = max(max_ulp[name], u)
        done = k - args.first + 1
        if done % 25 == 0 or done == args.count:
            print(f"[{done}/{args.count}] ok", flush=True)
    spent = time.monotonic() - started
    table, _ = coverage_table(executed, nonzero, tolerated, max_ulp, spec_instruction_names())
    print(f"coverage (instances executed, compared with a nonzero result, within a nonzero ulp budget, largest ulp):")
    print(table)
    print(f"all {args.count} programs agree with the model after every instruction "
          f"({sum(executed.values())} instructions, {spent:.1f} s)")
    if args.coverage_out:
        with open(args.coverage_out, "w") as f:
            json.dump({"executed": executed, "nonzero": nonzero, "tolerated": tolerated, "max_ulp": max_ulp}, f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
