#!/usr/bin/python3
"""Runs every benchmark program (bench/*.nasm) in nisa and in the NumPy model
(bench/numpy_model.py), checks that their outputs agree (`nisa diff`), and
prints one table. Builds nothing: give it a built nisa (default build/nisa).

    scripts/bench [--nisa build/nisa] [--reps N] [--only WORD] [--repeat 5] [--no-e2e]

Then the end-to-end table of bench/end_to_end.py (three ~200-instruction
programs: .npy inputs, --dump outputs, per-phase times, page faults, peak RSS,
beside the NumPy model as a whole process); --no-e2e skips it. Then the
runtime-loop table of bench/loops.py (a fori_loop of 10^5 iterations beside
the same body unrolled); --no-loops skips it.

What is measured (see bench/README.md):
- nisa s: best of --repeat CPU times (user + sys; --clock wall for elapsed time)
  of the whole `nisa run PROG.nasm --dump DIR` process: start-up, assembly,
  execution and writing the outputs; nothing subtracted.
- numpy s: the NumPy model's execution loop only (reading the program text and
  decoding instructions excluded), one run, in this process (process time).
- elements: REPS x the program's `bench-elements-per-rep`; GB/s: REPS x its
  `bench-bytes-per-rep` (tile bytes read + written) / nisa s; % memcpy: that
  over memcpy_f32's GB/s in the same run.
Exit status: 0 if every program ran and agreed, 1 otherwise.
"""
import argparse
import contextlib
import io
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import numpy_model  # noqa: E402

REPS_LINE = re.compile(r"^\.equ\s+REPS\s*,\s*(\d+)\s*$", re.M)


def header_value(text, key, default=None):
    m = re.search(r"^;\s*" + re.escape(key) + r":\s*(\S+)", text, re.M)
    return m.group(1) if m else default


def nisa_environment(clock):
    """CPU time adds up both threads' work plus their hand-overs, so the CPU
    table runs nisa on one thread (NISA_THREADS=1, SEMANTICS S14.2), as
    memcpy_f32 and the NumPy model run: one core's throughput. Wall time
    keeps nisa's default. An NISA_THREADS already set is kept."""
    env = dict(os.environ)
    if clock == "cpu":
        env.setdefault("NISA_THREADS", "1")
    return env


def run_nisa(nisa, prog, dump, repeat, clock):
    """Best of `repeat` runs: CPU time (user + sys of the process) or wall time."""
    best = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        p = subprocess.Popen([nisa, "run", prog, "--dump", dump], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                             env=nisa_environment(clock))
        err = p.stderr.read()
        _, status, usage = os.wait4(p.pid, 0)
        wall = time.perf_counter() - t0
        p.returncode = os.waitstatus_to_exitcode(status)
        p.stderr.close()
        if p.returncode != 0:
            raise RuntimeError(f"nisa run failed ({p.returncode}): {err.decode(errors='replace').strip()}")
        dt = wall if clock == "wall" else usage.ru_utime + usage.ru_stime
        best = dt if best is None else min(best, dt)
    return best


def run_numpy(prog, dump):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        numpy_model.main([prog, "--dump", dump])
    import json
    return json.loads(out.getvalue())


def fmt_rate(x):
    for unit, scale in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if x >= scale:
            return f"{x / scale:.2f}{unit}"
    return f"{x:.0f}"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--nisa", default=os.path.join(HERE, "..", "build", "nisa"))
    ap.add_argument("--reps", type=int, default=int(os.environ.get("BENCH_REPS", "0")) or None,
                    help="override every program's REPS (quick check; env BENCH_REPS too)")
    ap.add_argument("--only", action="append", default=[], help="run programs whose name contains WORD")
    ap.add_argument("--repeat", type=int, default=5, help="nisa runs per program; the best counts")
    ap.add_argument("--no-e2e", action="store_true",
                    help="skip the end-to-end table (bench/end_to_end.py: .npy in, dumps out, phases, faults)")
    ap.add_argument("--no-loops", action="store_true",
                    help="skip the runtime-loop table (bench/loops.py: a fori_loop beside the same body unrolled)")
    ap.add_argument("--clock", choices=("cpu", "wall"), default="cpu",
                    help="cpu (default): user+sys time of nisa, process time of the NumPy loop; wall: elapsed time")
    args = ap.parse_args(argv)
    nisa = os.path.abspath(args.nisa)
    if not os.access(nisa, os.X_OK):
        print(f"{nisa}: error: not an executable (build it first: scripts/build)", file=sys.stderr)
        return 2

    programs = sorted(f for f in os.listdir(HERE) if f.endswith(".nasm"))
    if args.only:
        programs = [p for p in programs if any(w in p for w in args.only)]
    rows, failures = [], 0
    with tempfile.TemporaryDirectory(prefix="nisa-bench-") as tmp:
        for k, name in enumerate(programs, 1):
            stem = name[:-5]
            with open(os.path.join(HERE, name)) as f:
                text = f.read()
            m = REPS_LINE.search(text)
            reps = int(m.group(1)) if m else 1
            if args.reps and m:
                reps = args.reps
                text = REPS_LINE.sub(f".equ  REPS, {reps}", text, count=1)
            prog = os.path.join(tmp, name)
            with open(prog, "w") as f:
                f.write(text)
            print(f"[{k}/{len(programs)}] {stem}: nisa ...", end="", file=sys.stderr, flush=True)
            row = {"name": stem, "reps": reps, "elements": reps * int(header_value(text, "bench-elements-per-rep", "0")),
                   "bytes": reps * int(header_value(text, "bench-bytes-per-rep", "0"))}
            try:
                row["nisa"] = run_nisa(nisa, prog, os.path.join(tmp, stem + ".nisa"), args.repeat, args.clock)
                print(f" {row['nisa']:.3f} s, numpy ...", end="", file=sys.stderr, flush=True)
                info = run_numpy(prog, os.path.join(tmp, stem + ".numpy"))
                row["numpy"] = info["seconds"] if args.clock == "wall" else info["cpu_seconds"]
                row["instructions"] = info["instructions"]
                print(f" {row['numpy']:.3f} s", end="", file=sys.stderr, flush=True)
                rtol = header_value(text, "bench-rtol", "1e-5")
                d = subprocess.run([nisa, "diff", os.path.join(tmp, stem + ".numpy"), os.path.join(tmp, stem + ".nisa"),
                                    "--rtol", rtol], capture_output=True, text=True)
                row["agree"] = d.returncode == 0
                print(", outputs agree" if row["agree"] else ", OUTPUTS DIFFER:\n" + d.stdout + d.stderr,
                      file=sys.stderr, flush=True)
                failures += not row["agree"]
            except Exception as e:  # noqa: BLE001 (reported, counted, and the run goes on)
                print(f" FAILED: {e}", file=sys.stderr, flush=True)
                row["error"] = str(e)
                failures += 1
            rows.append(row)

    memcpy = next((r for r in rows if r["name"] == "memcpy_f32" and "nisa" in r), None)
    memcpy_gbs = memcpy["bytes"] / memcpy["nisa"] / 1e9 if memcpy else None
    head = ("program", "instructions", "elements", "nisa s", "numpy s", "ratio", "nisa elem/s", "GB/s", "% memcpy", "agree")
    table = [head]
    for r in rows:
        if "error" in r:
            table.append((r["name"], "-", "-", "-", "-", "-", "-", "-", "-", "FAILED"))
            continue
        gbs = r["bytes"] / r["nisa"] / 1e9
        table.append((r["name"], str(r["instructions"]), fmt_rate(r["elements"]), f"{r['nisa']:.3f}", f"{r['numpy']:.3f}",
                      f"{r['numpy'] / r['nisa']:.1f}x", fmt_rate(r["elements"] / r["nisa"]), f"{gbs:.2f}",
                      f"{100 * gbs / memcpy_gbs:.0f}%" if memcpy_gbs else "-", "yes" if r["agree"] else "NO"))
    widths = [max(len(row[i]) for row in table) for i in range(len(head))]
    for i, row in enumerate(table):
        print("  ".join(c.ljust(w) if j == 0 else c.rjust(w) for j, (c, w) in enumerate(zip(row, widths))))
        if i == 0:
            print("  ".join("-" * w for w in widths))
    what = "CPU times (user+sys)" if args.clock == "cpu" else "wall times"
    print(f"nisa s: best of {args.repeat} {what} of the whole `nisa run` (start-up and assembly included); "
          f"numpy s: the NumPy model's execution loop only, one run ({'process time' if args.clock == 'cpu' else 'wall'}).")
    if not args.no_e2e:  # issue 16: the end-to-end programs in the same run
        import end_to_end
        print(file=sys.stdout, flush=True)
        failures += end_to_end.main(["--nisa", nisa, "--repeat", str(max(args.repeat, 1))] +
                                    [a for w in args.only for a in ("--only", w)])
    if not args.no_loops:  # issue 29: runtime loops against their unrolled form, in the same run
        import loops
        print(file=sys.stdout, flush=True)
        failures += loops.main(["--nisa", nisa, "--repeat", str(max(args.repeat, 1))] +
                               (["--iterations", "1000"] if args.reps else []))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
