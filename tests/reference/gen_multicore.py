"""Seeded random programs for two cores (LANGUAGE.md 2.7, SEMANTICS S16).

Each core's section is a random program of gen_programs (its own SBUF/PSUM
tensors, accumulators and generators; its HBM tensors become shared ones
renamed c0_NAME / c1_NAME, so neither core touches the other's), with
cross-core events inserted between its top-level lines, the k-th event of
core 0 matching the k-th of core 1:
  - a sendrecv: each core loads a tile from its own input and swaps it with
    the other core (any dtype, bits with NaN payloads and -0, any partition
    start, the two sides at different starts, sometimes dst = src, pipe_id and
    dma_engine random), then stores what it received to a shared output;
  - a sendrecv_compute: each core reduces its tile with the other core's
    (add, maximum, minimum), in SBUF or in its private HBM, sometimes into
    another dtype, and stores the result (outputs x_red*: arithmetic, so a
    NaN's payload is open, S2.1);
  - a hand-over: one core writes a shared HBM tensor, both meet at a
    core_barrier over it (cores in NKI's spellings, the engine random), then
    the other core reads it back and stores it;
  - sometimes a core_barrier on one core only, naming just that core.
The programs are race free: two cores touch the same HBM bytes only across a
meeting. The outputs named x_* come from the events and are compared bit for
bit; the others come from the random bodies (their tolerance is gen_programs').
"""
import re

import numpy as np

import gen_programs
import ref_dtypes
from gen_builder import ProgramBuilder

ARCHS = ["trn2", "trn3"]  # the archs with two cores (isa.json max_cores)
# Bodies of 1 to 3 blocks of gen_programs' default mix, on the program's arch,
# without its one-core barriers (here they would meet the other core), and
# without topk, whose program-wide `.nki` (drawn per body) the two cores
# could not share (the one-core random programs and the lockstep check it).
BODY_BLOCKS = (1, 4)
BODY_WEIGHTS = {"emit_core_barrier": 0.0, "emit_topk": 0.0}
EXCHANGE_DTYPES = ["f32", "bf16", "f16", "fp8e4m3", "fp8e5m2", "i32", "i16", "u8", "i8", "u32"]
BARRIER_CORES = ["[0, 1]", "[1, 0]", "[0, 1, 2, 3]"]  # (0, 1) in NKI's spellings; cores the program lacks are not waited for
FEATURES = ["sendrecv", "sendrecv in place", "sendrecv at two partition starts", "gpsimd_dma", "sendrecv_compute",
            "sendrecv_compute in private HBM", "sendrecv_compute into another dtype", "hand-over 0 to 1",
            "hand-over 1 to 0", "solo barrier", "two-dimensional tile"]
REDUCE_DTYPES = ["f32", "bf16", "f16", "fp8e4m3", "i32", "i16", "u8"]

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _renamed(text, names):
    """`text` with each whole word in `names` replaced by names[word], outside quoted strings."""
    parts = text.split('"')
    for i in range(0, len(parts), 2):
        parts[i] = _NAME.sub(lambda m: names.get(m.group(0), m.group(0)), parts[i])
    return '"'.join(parts)


def body(seed, arch, core):
    """A random one-core program as (shared lines, section lines, inputs): its .hbm
    and .equ names prefixed with c<core>_, its instructions grouped into
    top-level units (a .rept block and a loop stay whole) so events go between them."""
    mix = gen_programs.Mix(archs=[(arch, 1.0)], weights=BODY_WEIGHTS, blocks=BODY_BLOCKS)
    text, inputs = gen_programs.build(seed, mix)
    prefix = f"c{core}_"
    names = {}
    for line in text.splitlines():
        words = line.split()
        if len(words) > 1 and words[0] == ".hbm":
            names[words[1]] = prefix + words[1]
        elif len(words) > 1 and words[0] == ".equ":
            names[words[1].rstrip(",")] = prefix + words[1].rstrip(",")
    shared, section, units, depth = [], [], [], 0
    for line in text.splitlines():
        head = line.split()[0] if line.split() else ""
        if head in (".arch", "") or head.startswith(";"):
            continue
        if head == ".nki":  # only activation's engine=gpsimd picks one here (topk is out of the mix): NKI 0.7, the default
            assert line.split()[1] == "0.7", line
            continue
        line = _renamed(line, names)
        if head == ".hbm":
            shared.append(line)
        elif head in (".sbuf", ".psum", ".reg"):  # the core's own tensors and registers (S17.1)
            section.append(line)
        else:
            if depth == 0:
                units.append([])
            units[-1].append(line)
            # a .rept block and a runtime loop (S17.2: no meeting inside one) stay whole
            depth += (head in (".rept", "fori_loop", "while_loop")) - (head in (".endr", "end_loop"))
    return shared, section, units, {names[k]: v for k, v in inputs.items()}


class Events:
    """The cross-core events of one program: declarations, inputs, each core's lines."""

    def __init__(self, rng, arch):
        self.b = ProgramBuilder(rng, arch)  # its random helpers and exact values
        self.shared, self.inputs = [], {}
        self.section = [[], []]   # per core: declarations
        self.lines = [[], []]     # per core: one list of lines per event
        self.features = set()
        self.count = 0

    def name(self, prefix):
        self.count += 1
        return f"x_{prefix}{self.count}"

    def hbm(self, prefix, dtype, shape, role, values=None):
        name = self.name(prefix)
        self.shared.append(f".hbm {name} {dtype} [{', '.join(map(str, shape))}] {role}")
        if values is not None:
            self.inputs[name] = ref_dtypes.to_npy(dtype, ref_dtypes.from_npy(dtype, values)).reshape(shape)
        return name

    def tile_shape(self):
        b = self.b
        count = int(b.rng.integers(1, 129))
        free = [int(b.rng.integers(1, 40))]
        if b.chance(0.2):
            free = [int(b.rng.integers(1, 6)), int(b.rng.integers(1, 9))]
            self.features.add("two-dimensional tile")
        return count, free

    def values(self, dtype, count, free):
        lo, hi = (-1000.0, 1000.0) if ref_dtypes.is_float(dtype) else (None, None)
        v = self.b.values(dtype, (count, int(np.prod(free))), *(() if lo is None else (lo, hi)), specials=True)
        return v.reshape([count] + free)

    @staticmethod
    def view(name, start, count, free):
        return f"{name}[{start}:{start + count}" + ", :" * len(free) + "]"

    def sendrecv(self):
        b = self.b
        dtype = b.pick(EXCHANGE_DTYPES)
        count, free = self.tile_shape()
        starts = [int(b.rng.integers(0, 129 - count)) for _ in range(2)]
        if starts[0] != starts[1]:
            self.features.add("sendrecv at two partition starts")
        pipe, engine = int(b.rng.integers(0, 256)), b.pick([None, "dma", "gpsimd_dma"])
        if engine == "gpsimd_dma":
            self.features.add("gpsimd_dma")
        in_place = b.chance(0.2)
        if in_place:
            self.features.add("sendrecv in place")
        self.features.add("sendrecv")
        shape = "[" + ", ".join(map(str, [128] + free)) + "]"
        for core in (0, 1):
            source = self.hbm("in", dtype, [count] + free, "input", self.values(dtype, count, free))
            out = self.hbm("out", dtype, [count] + free, "output")
            send, receive = self.name("s"), self.name("r")
            self.section[core].append(f".sbuf {send} {dtype} {shape}")
            src = self.view(send, starts[core], count, free)
            dst = src
            if not in_place:
                self.section[core].append(f".sbuf {receive} {dtype} {shape}")
                dst = self.view(receive, starts[core], count, free)
            tail = f", dma_engine={engine}" if engine else ""
            self.lines[core].append([f"dma_copy dst={src}, src={source}",
                                     f"sendrecv src={src}, dst={dst}, send_to_rank={1 - core}, "
                                     f"recv_from_rank={1 - core}, pipe_id={pipe}{tail}",
                                     f"dma_copy dst={out}, src={dst}"])

    def sendrecv_compute(self):
        b = self.b
        dtype, op = b.pick(REDUCE_DTYPES), b.pick(["add", "maximum", "minimum"])
        out_dtype = dtype
        if b.chance(0.25):
            out_dtype = b.pick(REDUCE_DTYPES)
            self.features.add("sendrecv_compute into another dtype")
        count, free = self.tile_shape()
        in_hbm = b.chance(0.3)
        self.features.add("sendrecv_compute")
        if in_hbm:
            self.features.add("sendrecv_compute in private HBM")
        shape = [count] + free
        for core in (0, 1):
            values = self.values(dtype, count, free)
            if op != "add":  # S2.1 leaves the sign of a zero from maximum/minimum open
                values[values == 0] = 0.5
            source = self.hbm("in", dtype, shape, "input", values)
            out = self.hbm("red", out_dtype, shape, "output")
            src, dst = self.name("cs"), self.name("cd")
            if in_hbm:  # the core's private HBM (LANGUAGE.md 2.7: scratch in its section)
                self.section[core] += [f".hbm {src} {dtype} [{', '.join(map(str, shape))}] scratch",
                                       f".hbm {dst} {out_dtype} [{', '.join(map(str, shape))}] scratch"]
                src_view, dst_view = src, dst
            else:
                start = int(b.rng.integers(0, 129 - count))
                tile = "[" + ", ".join(map(str, [128] + free)) + "]"
                self.section[core] += [f".sbuf {src} {dtype} {tile}", f".sbuf {dst} {out_dtype} {tile}"]
                src_view, dst_view = self.view(src, start, count, free), self.view(dst, start, count, free)
            self.lines[core].append([f"dma_copy dst={src_view}, src={source}",
                                     f"sendrecv_compute src={src_view}, dst={dst_view}, send_to_rank={1 - core}, "
                                     f"recv_from_rank={1 - core}, reduce_op={op}",
                                     f"dma_copy dst={out}, src={dst_view}"])

    def hand_over(self):
        b = self.b
        dtype = b.pick(EXCHANGE_DTYPES)
        count, free = self.tile_shape()
        writer = int(b.rng.integers(0, 2))
        self.features.add(f"hand-over {writer} to {1 - writer}")
        source = self.hbm("in", dtype, [count] + free, "input", self.values(dtype, count, free))
        handed = self.hbm("h", dtype, [count] + free, "scratch")
        out = self.hbm("out", dtype, [count] + free, "output")
        shape = "[" + ", ".join(map(str, [count] + free)) + "]"
        engine = b.pick([None, "gpsimd", "vector", "scalar", "tensor"])
        barrier = f"core_barrier data={handed}, cores={b.pick(BARRIER_CORES)}" + (f", engine={engine}" if engine else "")
        tile = self.name("t")
        for core in (0, 1):
            self.section[core].append(f".sbuf {tile} {dtype} {shape}")
            if core == writer:
                self.lines[core].append([f"dma_copy dst={tile}, src={source}", f"dma_copy dst={handed}, src={tile}",
                                         barrier])
            else:
                self.lines[core].append([barrier, f"dma_copy dst={tile}, src={handed}",
                                         f"dma_copy dst={out}, src={tile}"])

    def solo_barrier(self, core, data):
        """A barrier naming only its own core: it waits for no one (S16.3)."""
        self.features.add("solo barrier")
        return [f"core_barrier data={data}, cores=[{core}]"]


def _interleave(rng, units, events):
    """The body's units with the events inserted between them, in order."""
    slots = np.sort(rng.integers(0, len(units) + 1, size=len(events)))
    out, e = [], 0
    for k in range(len(units) + 1):
        while e < len(events) and slots[e] == k:
            out += events[e]
            e += 1
        if k < len(units):
            out += units[k]
    return out


def build(seed):
    """(text, inputs {name: array}, features): one random program for two cores."""
    rng = np.random.default_rng(seed)
    arch = ARCHS[int(rng.integers(len(ARCHS)))]
    bodies = [body(gen_programs.program_seed(seed, k), arch, k) for k in (0, 1)]
    ev = Events(rng, arch)
    for _ in range(int(rng.integers(1, 5))):
        r = ev.b.rng.random()
        ev.sendrecv() if r < 0.45 else ev.sendrecv_compute() if r < 0.7 else ev.hand_over()
    lines = [list(ev.lines[0]), list(ev.lines[1])]
    for core in (0, 1):
        if ev.b.chance(0.2):  # on this core only: it does not change the matching of the others
            data = bodies[core][0][0].split()[1] if bodies[core][0] else None
            if data:
                at = int(rng.integers(0, len(lines[core]) + 1))
                lines[core].insert(at, ev.solo_barrier(core, data))
    text = [f"; random program for two cores, seed {seed}", f".arch {arch}", ".cores 2"]
    text += bodies[0][0] + bodies[1][0] + ev.shared
    inputs = {**bodies[0][3], **bodies[1][3], **ev.inputs}
    for core in (0, 1):
        shared, section, units, _ = bodies[core]
        text += ["", f".core {core}"] + section + ev.section[core] + _interleave(rng, units, lines[core])
    return "\n".join(text) + "\n", inputs, ev.features
