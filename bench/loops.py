#!/usr/bin/python3
"""Runtime loops against the same body unrolled (issue 29, SEMANTICS S17): each
body below runs ITERATIONS times as a `fori_loop` (a few instructions in the
program) and as `.rept` (ITERATIONS copies), in the same run of this script.

    scripts/bench-loops [--nisa build/nisa] [--repeat 5] [--iterations 100000] [--profile]

Columns: the instructions each form assembles to (as `nisa run --phase-times`
counts them), the best of --repeat CPU times (user + sys, one thread:
NISA_THREADS=1 as scripts/bench) of the whole `nisa run PROG.nasm --dump DIR`
process, loop s / unrolled s (issue 29: at most 2), the best of the same
runs' execute phases (wall ms, `--phase-times`: the unrolled form's whole
run is mostly assembling its copies, which the execute phase leaves out)
and their ratio, and whether both forms
dump the same bytes (`nisa diff --rtol 0 --atol 0`). --profile also times
`nisa run --profile` of the loop form (its timeline lays each iteration out).
The targets (issue 29: the loop program under 100 instructions, loop s at
most 2x unrolled s) are reported as met or not (speed is not an exit status:
a shared machine's noise would make it flaky). Exit status 1 if a form fails
or the outputs differ. scripts/bench runs this after its own tables
(--iterations 1000 with its quick --reps).
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

# name: (declarations, body); the body is chained through its tiles so that
# every iteration's result reaches the output.
BODIES = {
    # Dispatch-bound: three small instructions per iteration ([32, 16] tiles).
    "small_tiles_f32": (""".hbm  out f32 [32, 16] output
.sbuf a   f32 [32, 16]
.sbuf b   f32 [32, 16]
iota dst=a, base=0, partition_step=1, free_step=0.25
iota dst=b, base=1, partition_step=0, free_step=0.5
""", """tensor_scalar dst=a, data=a, op0=multiply, operand0=0.5, op1=add, operand1=1.0
tensor_tensor dst=b, data1=a, data2=b, op=maximum
tensor_scalar dst=b, data=b, op0=multiply, operand0=0.75, op1=add, operand1=0.25
""", "dma_copy dst=out, src=b\n"),
    # Bandwidth-bound: one tensor_tensor on a [128, 512] tile per iteration.
    "tile_128x512_f32": (""".hbm  out f32 [128, 512] output
.sbuf a   f32 [128, 512]
.sbuf b   f32 [128, 512]
iota dst=a, base=0, partition_step=1, free_step=0.25
iota dst=b, base=1, partition_step=0, free_step=0.5
""", """tensor_tensor dst=a, data1=a, data2=b, op=maximum
""", "dma_copy dst=out, src=a\n"),
}


def program(name, iterations, form):
    head, body, tail = BODIES[name]
    text = ".arch trn2\n" + head
    if form == "loop":
        text += f".reg i\nfori_loop var=i, lower=0, upper={iterations}\n{body}end_loop\n"
    else:
        text += f".rept k, {iterations}\n{body}.endr\n"
    return text + tail


def environment():
    env = dict(os.environ)
    env.setdefault("NISA_THREADS", "1")  # one core's CPU time, as scripts/bench
    return env


def best_cpu(argv, repeat):
    """Best of `repeat` CPU times (user + sys) of the process, and the best
    of its execute phases in ms (`--phase-times`)."""
    best, execute = None, None
    for _ in range(repeat):
        p = subprocess.Popen(argv + ["--phase-times"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                             env=environment())
        err = p.stderr.read().decode(errors="replace")
        _, status, usage = os.wait4(p.pid, 0)
        p.stderr.close()
        if os.waitstatus_to_exitcode(status) != 0:
            raise RuntimeError(f"{' '.join(argv)} failed: {err.strip()}")
        cpu = usage.ru_utime + usage.ru_stime
        best = cpu if best is None else min(best, cpu)
        ms = float(re.search(r"execute ([\d.]+)", err).group(1))
        execute = ms if execute is None else min(execute, ms)
    return best, execute


def assembled_instructions(nisa, prog):
    """Instructions in the assembled program (`nisa run --phase-times` counts them)."""
    p = subprocess.run([nisa, "run", prog, "--phase-times"], check=True, capture_output=True, text=True)
    return int(re.search(r"^instructions (\d+)", p.stderr, re.M).group(1))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--nisa", default=os.path.join(HERE, "..", "build", "nisa"))
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--iterations", type=int, default=100000)
    ap.add_argument("--profile", action="store_true", help="also time `nisa run --profile` of each loop form")
    args = ap.parse_args(argv)
    nisa = os.path.abspath(args.nisa)
    rows, failures = [], 0
    with tempfile.TemporaryDirectory(prefix="nisa-loops-") as tmp:
        for name in BODIES:
            row = {"name": name}
            try:
                dumps = {}
                for form in ("loop", "unrolled"):
                    prog = os.path.join(tmp, f"{name}_{form}.nasm")
                    with open(prog, "w") as f:
                        f.write(program(name, args.iterations, form))
                    row[form + "_instructions"] = assembled_instructions(nisa, prog)
                    dumps[form] = os.path.join(tmp, f"{name}_{form}.out")
                    row[form], row[form + "_execute"] = best_cpu([nisa, "run", prog, "--dump", dumps[form]], args.repeat)
                    print(f"{name} {form}: {row[form]:.3f} s", file=sys.stderr, flush=True)
                    if form == "loop" and args.profile:
                        row["profile"], _ = best_cpu([nisa, "run", prog, "--profile"], 1)
                d = subprocess.run([nisa, "diff", dumps["unrolled"], dumps["loop"], "--rtol", "0", "--atol", "0"],
                                   capture_output=True, text=True)
                row["agree"] = d.returncode == 0
            except Exception as e:  # noqa: BLE001 (reported, counted, and the run goes on)
                print(f"{name}: FAILED: {e}", file=sys.stderr, flush=True)
                row["error"] = str(e)
            rows.append(row)
    head = ["body", "iterations", "loop instructions", "unrolled instructions", "loop s", "unrolled s", "loop/unrolled",
            "loop execute ms", "unrolled execute ms", "execute loop/unrolled", "agree"]
    if args.profile:
        head.insert(-1, "loop --profile s")
    table = [head]
    for r in rows:
        if "error" in r:
            table.append([r["name"]] + ["-"] * (len(head) - 2) + ["FAILED"])
            failures += 1
            continue
        ratio = r["loop"] / r["unrolled"]
        failures += not r["agree"]
        r["ratio"] = max(ratio, r["loop_execute"] / r["unrolled_execute"])
        cells = [r["name"], str(args.iterations), str(r["loop_instructions"]), str(r["unrolled_instructions"]),
                 f"{r['loop']:.3f}", f"{r['unrolled']:.3f}", f"{ratio:.2f}", f"{r['loop_execute']:.1f}",
                 f"{r['unrolled_execute']:.1f}", f"{r['loop_execute'] / r['unrolled_execute']:.2f}",
                 "yes" if r["agree"] else "NO"]
        if args.profile:
            cells.insert(-1, f"{r['profile']:.3f}")
        table.append(cells)
    widths = [max(len(row[i]) for row in table) for i in range(len(head))]
    for i, row in enumerate(table):
        print("  ".join(c.ljust(w) if j == 0 else c.rjust(w) for j, (c, w) in enumerate(zip(row, widths))))
        if i == 0:
            print("  ".join("-" * w for w in widths))
    print(f"s: best of {args.repeat} CPU times (user+sys, NISA_THREADS=1) of the whole `nisa run` (start-up and assembly "
          "included); execute ms: the best of the same runs' execute phases (`--phase-times`, wall)")
    timed = [r for r in rows if "ratio" in r]
    if timed:
        size = max(r["loop_instructions"] for r in timed)
        worst = max(r["ratio"] for r in timed)
        print(f"  targets (issue 29): loop program < 100 instructions: {size} "
              f"({'met' if size < 100 else 'NOT met'}); loop/unrolled <= 2 (whole run and execute): worst {worst:.2f} "
              f"({'met' if worst <= 2 else 'NOT met'})")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
