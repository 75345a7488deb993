"""The reference model of a program for several cores (LANGUAGE.md 2.7,
docs/SEMANTICS.md S16), written from NKI's docstrings of sendrecv and
core_barrier, never from nisa's C++ code.

Each core is a ref_machine.Machine of its own (its SBUF, PSUM, accumulators
and random generators) running its section's instructions in order; the HBM
tensors declared before the first `.core` are one array that every core's
machine reads and writes (NKI 0.6: shared_hbm is "visible to all kernel
instances"), a section's own HBM tensors are that core's.

The cores run until each waits at a cross-core instruction, then meet:
  - sendrecv (S16.2, NKI 0.6 nki.isa.sendrecv): "sends src to send_to_rank,
    receives from recv_from_rank into dst"; with two cores both ranks are the
    other core, so core c's sendrecv meets the next sendrecv of that core,
    which sends back to c. Both sides agree on pipe_id, on the shape
    (partitions, elements per partition) and on the dtype. Both srcs are
    read before either dst is written; dst takes the peer's src bits.
  - sendrecv_compute (S16.6) meets the other core's as sendrecv does; each
    side's dst is reduce_op(its src, the other's src), the two srcs of one
    shape and dtype.
  - core_barrier (S16.3): the cores it names that the program has wait for
    each other when it names the core running it; one that does not name it
    waits for no one. It reads and writes nothing.
Which core runs while the others wait is the schedule: "in_order" (the
lowest core that can move runs until it waits) or a seeded random one
(any core that can move takes one step). A program whose cores never touch
each other's HBM bytes except across a meeting gives the same bytes under
every schedule (run_multicore.py runs each random program under two).
A meeting that can never happen is a ModelError naming what each core waits
for (the model's own view: nisa's messages are checked by the golden tests).
"""
import numpy as np

import nasm_reader
from instructions import SEMANTICS
from ref_loops import Walk
from ref_machine import Machine

# {mnemonic: "pair" | "barrier"}: the spec's cross-core instructions (isa.json cross_core)
CROSS_CORE = {name: i["cross_core"] for name, i in nasm_reader.INSTRUCTIONS.items() if i.get("cross_core")}


class ModelError(Exception):
    """The cores' cross-core instructions do not match (the program is not valid)."""


class SharedHbm(dict):
    """One core's HBM: the names in `shared_names` live in `shared`, the dict
    every core's machine uses for them; a section's own tensors stay here."""

    def __init__(self, shared, shared_names):
        super().__init__()
        self.shared, self.shared_names = shared, shared_names

    def __getitem__(self, name):
        return self.shared[name] if name in self.shared_names else super().__getitem__(name)

    def __setitem__(self, name, value):
        if name in self.shared_names:
            self.shared[name] = value
        else:
            super().__setitem__(name, value)


def machines(prog, inputs, machine_class=Machine):
    """One machine per core, sharing the HBM tensors declared before the first `.core`."""
    shared, names = {}, {name for name, d in prog.decls.items() if d.memory == "hbm"}
    out = []
    for section in prog.sections:
        m = machine_class(section)
        m.hbm = SharedHbm(shared, names)
        m.load_inputs(inputs)  # the shared inputs again: the same values
        out.append(m)
    return out


def _participants(prog, ins, core):
    """The cores a core_barrier of `core` waits with (S16.3): those named that
    the program has (NKI 0.7: cores=(0, 1) applies at LNC 1 and 2), when they
    name `core`; else `core` alone (nki-library passes cores=(0,) on both)."""
    if core not in ins.ops["cores"]:
        return [core]
    return sorted({core} | {c for c in ins.ops["cores"] if c < prog.cores})


def _shape(m, view):
    """What must agree across a meeting (S16.2): the view's shape and dtype."""
    return tuple(view.counts), m.dtype(view)


class Run:
    """The state of a multi-core run: where each core is."""

    def __init__(self, prog, cores):
        self.prog, self.m = prog, cores
        # each core's positions in the order it runs them (its runtime loops, S17.2;
        # no meeting is inside one); pos[c]: the next one, None when it has finished
        self.walks = [Walk(prog.sections[c].instrs, cores[c]) for c in range(prog.cores)]
        self.pos = [next(w, None) for w in self.walks]
        self.meetings = []  # (kind, cores, lines) in the order performed

    def next(self, c):
        return self.prog.sections[c].instrs[self.pos[c]] if self.pos[c] is not None else None

    def waits(self, c):
        ins = self.next(c)
        return ins is not None and ins.mnemonic in CROSS_CORE

    def movable(self):
        return [c for c in range(self.prog.cores) if self.next(c) is not None and not self.waits(c)]

    def step(self, c):
        ins = self.next(c)
        m = self.m[c]
        m.line = ins.line
        try:
            SEMANTICS[ins.mnemonic](m, ins.ops)
        except Exception as e:
            raise RuntimeError(f"core {c}, line {ins.line}: {ins.mnemonic}: {e}") from e
        self.pos[c] = next(self.walks[c], None)

    def meeting(self):
        """A meeting every side of which waits now: (kind, [cores]), or None."""
        for c in range(self.prog.cores):
            if not self.waits(c):
                continue
            ins = self.next(c)
            if CROSS_CORE[ins.mnemonic] == "pair":
                to, frm = ins.ops["send_to_rank"], ins.ops["recv_from_rank"]
                if to != frm or to == c or to >= self.prog.cores:
                    raise ModelError(f"core {c}, line {ins.line}: {ins.mnemonic} sends to {to}, receives from {frm}")
                peer = self.next(to) if self.waits(to) else None
                if peer is not None and CROSS_CORE[peer.mnemonic] == "pair" and peer.ops["send_to_rank"] == c:
                    if peer.mnemonic != ins.mnemonic:
                        raise ModelError(f"core {c}, line {ins.line}: {ins.mnemonic} meets {peer.mnemonic} (line {peer.line})")
                    return ins.mnemonic, [c, to]
            else:
                # Each participant at a barrier with these participants (a core waiting at
                # one that names only itself meets alone first).
                cores = _participants(self.prog, ins, c)
                if all(self.waits(d) and self.next(d).mnemonic == "core_barrier" and
                       _participants(self.prog, self.next(d), d) == cores for d in cores):
                    return "core_barrier", cores
        return None

    def meet(self, kind, cores):
        lines = [self.next(c).line for c in cores]
        if kind != "core_barrier":
            a, b = cores
            ia, ib = self.next(a), self.next(b)
            ma, mb = self.m[a], self.m[b]
            where = f"{kind} lines {ia.line} (core {a}) and {ib.line} (core {b})"
            if ia.ops.get("pipe_id") != ib.ops.get("pipe_id"):
                raise ModelError(f"{where}: pipe_id {ia.ops['pipe_id']} and {ib.ops['pipe_id']}")
            # sendrecv: each src lands in the other's dst; sendrecv_compute: the srcs meet each other.
            received = "src" if kind == "sendrecv_compute" else "dst"
            for (ms, src), (md, dst) in (((ma, ia.ops["src"]), (mb, ib.ops[received])),
                                         ((mb, ib.ops["src"]), (ma, ia.ops[received]))):
                if _shape(ms, src) != _shape(md, dst):
                    raise ModelError(f"{where}: src {_shape(ms, src)} and the peer's {received} {_shape(md, dst)}")
            # Both sources read before either destination is written (a dst may be its own src).
            ma.incoming = mb.read_raw(ib.ops["src"], check=False)
            mb.incoming = ma.read_raw(ia.ops["src"], check=False)
        for c in cores:
            self.step(c)
        self.meetings.append((kind, cores, lines))

    def stuck(self):
        """What each unfinished core waits at, when no meeting can happen."""
        waiting = [f"core {c} at {self.next(c).mnemonic} (line {self.next(c).line})"
                   for c in range(self.prog.cores) if self.next(c) is not None]
        done = [f"core {c} has finished" for c in range(self.prog.cores) if self.next(c) is None]
        return "no meeting can happen: " + "; ".join(waiting + done)


def run(prog, inputs, schedule="in_order", machine_class=Machine):
    """Runs a program for several cores; `schedule` "in_order" or an integer seed.
    Returns (outputs, run): the shared HBM outputs and the Run (its machines in .m)."""
    state = Run(prog, machines(prog, inputs, machine_class))
    rng = None if schedule == "in_order" else np.random.default_rng(schedule)
    while True:
        movable = state.movable()
        if movable:
            if rng is None:
                c = movable[0]
                while state.next(c) is not None and not state.waits(c):
                    state.step(c)
            else:
                state.step(movable[int(rng.integers(len(movable)))])
            continue
        found = state.meeting()
        if found is None:
            if all(state.next(c) is None for c in range(prog.cores)):
                break
            raise ModelError(state.stuck())
        state.meet(*found)
    return state.m[0].outputs(), state


def hazards(state):
    """Each core's first --strict hazard (line, reason) (S1.1, S1.3): which of them
    a run meets first depends on how the cores interleave."""
    return [m.hazard for m in state.m if m.hazard is not None]
