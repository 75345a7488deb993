#!/usr/bin/python3
"""End-to-end benchmark (issue 16): three programs of ~200 seed instructions on
float32 [128, 2048] tiles, each read from .npy files and dumped with --dump,
timed as whole processes: nisa (`nisa run ... --phase-times`) and the NumPy
functional model (bench/numpy_model.py's Simulator, reading the same .npy
files and writing the same dumps), side by side in one run.

    scripts/bench-e2e [--nisa build/nisa] [--repeat 5]

Columns: wall and CPU (user + sys) time of the best of --repeat runs, minor
page faults and peak RSS of that run, nisa's phases (load = start-up, spec,
assembly; inputs = machine set-up and .npy reads; predecode; execute;
outputs = dump files), and the NumPy model's whole-process times. The outputs
of both must agree (nisa diff). Exit status 1 if anything fails or differs.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
P, N, CHAIN = 128, 2048, 200

HEAD = f""".arch trn2
.hbm  x    f32 [{P}, {N}] input
.hbm  y    f32 [{P}, {N}] output
.hbm  r    f32 [{P}, 1] output
.sbuf tx   f32 [{P}, {N}]
.sbuf ty   f32 [{P}, {N}]
.sbuf tr   f32 [{P}, 1]
"""

PROGRAMS = {
    "range_select_chain": (HEAD + f""".hbm  lo   f32 [{P}, 1] input
.hbm  hi   f32 [{P}, 1] input
.sbuf tlo  f32 [{P}, 1]
.sbuf thi  f32 [{P}, 1]
dma_copy dst=tx, src=x
dma_copy dst=tlo, src=lo
dma_copy dst=thi, src=hi
.rept k, {CHAIN}
range_select dst=ty, on_true_tile=tx, comp_op0=greater_equal, comp_op1=less, bound0=tlo, bound1=thi, reduce_cmd=reset_reduce, reduce_res=tr
.endr
dma_copy dst=y, src=ty
dma_copy dst=r, src=tr
""", ("x", "lo", "hi")),
    "select_reduce_chain": (HEAD + f""".hbm  m    u8 [{P}, {N}] input
.sbuf tm   u8 [{P}, {N}]
dma_copy dst=tx, src=x
dma_copy dst=tm, src=m
.rept k, {CHAIN}
select_reduce dst=ty, predicate=tm, on_true=tx, on_false=-1.0, reduce_res=tr, reduce_cmd=reset_reduce
.endr
dma_copy dst=y, src=ty
dma_copy dst=r, src=tr
""", ("x", "m")),
    "copy_predicated_chain": (HEAD + f""".hbm  m    u8 [{P}, {N}] input
.sbuf tm   u8 [{P}, {N}]
dma_copy dst=tx, src=x
dma_copy dst=tm, src=m
memset dst=tr, value=0.0
.rept k, {CHAIN}
tensor_copy_predicated dst=ty, src=tx, predicate=tm
.endr
dma_copy dst=y, src=ty
dma_copy dst=r, src=tr
""", ("x", "m")),
}


def make_inputs(folder, names):
    rng = np.random.default_rng(16)
    arrays = {"x": rng.standard_normal((P, N)).astype(np.float32),
              "lo": np.full((P, 1), 100, np.float32), "hi": rng.integers(200, N, (P, 1)).astype(np.float32),
              "m": (rng.random((P, N)) < 0.5).astype(np.uint8)}
    for name in names:
        np.save(os.path.join(folder, name + ".npy"), arrays[name])


def timed(cmd):
    """(wall s, cpu s, minor faults, peak RSS MiB, stderr) of one process."""
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    err = p.stderr.read().decode(errors="replace")
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    p.stderr.close()
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError(f"{cmd[0]} failed: {err.strip()}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_minflt, usage.ru_maxrss / 1024, err


def best_of(cmd, repeat):
    runs = [timed(cmd) for _ in range(repeat)]
    return min(runs, key=lambda r: r[0])


def model_main(argv):
    """The NumPy model as a whole process: program, .npy inputs, run, dumps."""
    sys.path.insert(0, HERE)
    import numpy_model
    prog_path, dump = argv[0], argv[1]
    with open(prog_path) as f:
        prog = numpy_model.nasm_reader.read_program(f.read())
    sim = numpy_model.Simulator(prog)
    for spec in argv[2:]:
        name, path = spec.split("=", 1)
        sim.arrays[name][...] = np.load(path)
    steps = [getattr(sim, ins.mnemonic)(ins.ops) for ins in prog.instrs]
    with np.errstate(all="ignore"):
        for step in steps:
            step()
    os.makedirs(dump, exist_ok=True)
    for name, arr in sim.outputs().items():
        np.save(os.path.join(dump, name + ".npy"), arr)
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--nisa", default=os.path.join(HERE, "..", "build", "nisa"))
    ap.add_argument("--repeat", type=int, default=5, help="runs of each side; the fastest (wall) counts")
    ap.add_argument("--only", action="append", default=[], help="programs whose name contains WORD")
    args = ap.parse_args(argv)
    nisa = os.path.abspath(args.nisa)
    rows, failures = [], 0
    chosen = {n: p for n, p in PROGRAMS.items() if not args.only or any(w in n for w in args.only)}
    if not chosen:
        return 0
    with tempfile.TemporaryDirectory(prefix="nisa-e2e-") as tmp:
        for k, (name, (text, inputs)) in enumerate(chosen.items(), 1):
            print(f"[{k}/{len(chosen)}] {name} ...", end="", file=sys.stderr, flush=True)
            folder = os.path.join(tmp, name)
            os.makedirs(folder)
            prog = os.path.join(folder, "prog.nasm")
            with open(prog, "w") as f:
                f.write(text)
            make_inputs(folder, inputs)
            given = [f"{n}={os.path.join(folder, n + '.npy')}" for n in inputs]
            nisa_run = best_of([nisa, "run", prog, "--dump", os.path.join(folder, "nisa"), "--phase-times"]
                               + [a for g in given for a in ("--input", g)], args.repeat)
            model = best_of([sys.executable, os.path.abspath(__file__), "--model", prog, os.path.join(folder, "numpy")]
                            + given, max(1, args.repeat // 2))
            d = subprocess.run([nisa, "diff", os.path.join(folder, "numpy"), os.path.join(folder, "nisa")],
                               capture_output=True, text=True)
            agree = d.returncode == 0
            failures += not agree
            phases = dict((m.group(1), float(m.group(2))) for m in re.finditer(r"(\w+) ([\d.]+)", nisa_run[4].split(":", 1)[-1]))
            dead = re.search(r"skipped as dead stores (\d+)", nisa_run[4])
            peak = re.search(r"peak RSS KiB (\d+)", nisa_run[4])
            if peak:  # nisa's own high-water mark (wait4's ru_maxrss includes this script's pages)
                nisa_run = (*nisa_run[:3], int(peak.group(1)) / 1024, nisa_run[4])
            phases["skipped"] = int(dead.group(1)) if dead else 0
            rows.append((name, nisa_run, model, phases, agree))
            print(" done" if agree else " OUTPUTS DIFFER\n" + d.stdout, file=sys.stderr, flush=True)

    head = ("program", "nisa wall ms", "cpu ms", "faults", "RSS MiB", "load", "inputs", "predecode", "execute",
            "outputs", "dead", "numpy wall ms", "numpy cpu ms", "ratio (wall)", "agree")
    table = [head]
    for name, n, m, ph, agree in rows:
        table.append((name, f"{1e3 * n[0]:.1f}", f"{1e3 * n[1]:.1f}", str(n[2]), f"{n[3]:.1f}",
                      *(f"{ph.get(p, 0):.1f}" for p in ("load", "inputs", "predecode", "execute", "outputs")), str(ph["skipped"]),
                      f"{1e3 * m[0]:.1f}", f"{1e3 * m[1]:.1f}", f"{m[0] / n[0]:.1f}x", "yes" if agree else "NO"))
    widths = [max(len(r[i]) for r in table) for i in range(len(head))]
    for i, r in enumerate(table):
        print("  ".join(c.ljust(w) if j == 0 else c.rjust(w) for j, (c, w) in enumerate(zip(r, widths))))
        if i == 0:
            print("  ".join("-" * w for w in widths))
    print(f"best of {args.repeat} wall times (nisa) and {max(1, args.repeat // 2)} (NumPy model, whole process "
          f"including Python start-up and imports); phases in ms from `nisa run --phase-times`; dead: instructions "
          f"skipped as dead stores (SEMANTICS S14.1).")
    return 1 if failures else 0


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--model":
        sys.exit(model_main(sys.argv[2:]))
    sys.exit(main())
