#!/usr/bin/python3
"""Kernel calls at scale (issue 25): three @nki.jit kernels (tensor addition,
row softmax, tiled matmul; bench/scaling_kernels.py) at sizes recording about
1k, 10k, (30k for softmax) and 100k instructions, each size timed in this one
process:

  record    nisa.nki's recording of the call (no text is written)
  assemble  the recording handed to the assembler's structures and checks
            (nisa.nki._assemble; with NISA_BENCH_PUBLIC_API=1, to_nasm's text
            and nisa.assemble of it)
  run       nisa.run of the program on the inputs (the first; "rerun", a
            second nisa.run of the same Program, is shown beside it)
  call      the whole @nki.jit call as a user makes it (all of the above,
            plus the result's arrays)
  numpy     vectorised NumPy of the same computation in float32
            (a + b; exp(x - max) / sum; lhsT.T @ rhs)
  sim       bench/instruction_simulator.py, a per-instruction NumPy simulator
            (the approach of nki.simulate) of the same recorded program:
            binding memory, decoding the instructions into closures and
            running them. Reading the text ("sim read") is shown apart.

Every size checks that the simulator's output and the vectorised NumPy result
agree with nisa's (np.allclose). Times are wall times, best of --repeat runs
(fewer once a measurement has taken --budget seconds). Then, per kernel, the
exponent of a least-squares fit of log(time) against log(instructions), and
the peak RSS (VmHWM) of a tensor-add call on --rss-gib GiB of float32 input,
in a child process, against the input's size.

    PYTHONPATH=build/python /usr/bin/python3 bench/kernel_scaling.py [--sizes small|all|1k,10k,...]
        [--repeat N] [--budget S] [--kernels add,softmax,matmul] [--rss-gib G | --no-rss]

Progress goes to stderr, the tables to stdout. Exit status 1 if an output
differs or a size fails.
"""
import argparse
import contextlib
import gc
import json
import math
import os
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import nisa  # noqa: E402
import nisa.nki  # noqa: E402

nisa.nki.install()
import instruction_simulator  # noqa: E402
import scaling_kernels  # noqa: E402

# Targets of issue 25.
TARGET_CALL_OVER_SIM = 1.0     # at 10k and 100k, every kernel
TARGET_SOFTMAX_OVER_NUMPY = 5.0  # at 30k
TARGET_EXPONENT = 1.15
TARGET_RSS_RATIO = 1.7


def progress(msg):
    print(f"[kernel_scaling] {msg}", file=sys.stderr, flush=True)


def split_tiles(tiles):
    """Two tile counts whose product is about `tiles`, as square as possible."""
    a = max(1, round(math.sqrt(tiles)))
    return a, max(1, round(tiles / a))


# ---- the kernels: inputs for a target instruction count, and their NumPy forms ----

ADD_TILE_N = 32           # [128, 32] float32 tiles: 4 instructions each
SOFTMAX_COLS = 128        # rows of 128 columns, 128 rows per tile: 8 instructions each
MATMUL_K, MATMUL_TILE_M, MATMUL_TILE_N = 512, 128, 32  # 3 * K/128 + 2 = 14 instructions per result tile


def add_case(target, rng):
    mt, nt = split_tiles(target / 4)
    a = rng.random((128 * mt, ADD_TILE_N * nt), dtype=np.float32)
    b = rng.random((128 * mt, ADD_TILE_N * nt), dtype=np.float32)
    return dict(args=(a, b, ADD_TILE_N), numpy=lambda: np.add(a, b), instructions=4 * mt * nt,
                shape=f"[{a.shape[0]}, {a.shape[1]}] x2", rtol=1e-6, atol=0.0)


def numpy_softmax(x):
    e = np.exp(x - x.max(axis=1, keepdims=True))
    e /= e.sum(axis=1, keepdims=True)
    return e


def softmax_case(target, rng):
    tiles = max(1, round(target / 8))
    a = rng.standard_normal((128 * tiles, SOFTMAX_COLS), dtype=np.float32)
    return dict(args=(a,), numpy=lambda: numpy_softmax(a), instructions=8 * tiles,
                shape=f"[{a.shape[0]}, {a.shape[1]}]", rtol=1e-4, atol=1e-6)


def matmul_case(target, rng):
    per_tile = 3 * (MATMUL_K // 128) + 2
    mt, nt = split_tiles(target / per_tile)
    lhsT = rng.random((MATMUL_K, MATMUL_TILE_M * mt), dtype=np.float32) - 0.5
    rhs = rng.random((MATMUL_K, MATMUL_TILE_N * nt), dtype=np.float32) - 0.5
    return dict(args=(lhsT, rhs, MATMUL_TILE_M, MATMUL_TILE_N), numpy=lambda: np.matmul(lhsT.T, rhs),
                instructions=per_tile * mt * nt, shape=f"[{MATMUL_K}, {lhsT.shape[1]}] x [{MATMUL_K}, {rhs.shape[1]}]",
                rtol=1e-4, atol=1e-4)


KERNELS = {
    "tensor_add": (scaling_kernels.tensor_add, add_case, f"[128, {ADD_TILE_N}] float32 tiles"),
    "softmax": (scaling_kernels.softmax, softmax_case, f"rows of {SOFTMAX_COLS} float32, 128 rows per tile"),
    "matmul": (scaling_kernels.matmul_tiled, matmul_case,
               f"K = {MATMUL_K}, [{MATMUL_TILE_M}, {MATMUL_TILE_N}] result tiles, float32"),
}
ALIASES = {"add": "tensor_add", "tensor_add": "tensor_add", "softmax": "softmax", "matmul": "matmul"}
DEFAULT_SIZES = {"tensor_add": [1000, 10000, 100000], "softmax": [1000, 10000, 30000, 100000],
                 "matmul": [1000, 10000, 100000]}
SMALL_SIZES = [1000, 10000]


def parse_size(text):
    text = text.strip().lower()
    scale = 1000 if text.endswith("k") else 1
    return int(float(text.rstrip("k")) * scale)


def size_label(n):
    return f"{n // 1000}k" if n % 1000 == 0 else str(n)


# ---- timing ----

def best_of(fn, repeat, budget, what):
    """(best seconds, last result): up to `repeat` runs, no more once `budget` seconds are spent."""
    best, spent, result = math.inf, 0.0, None
    for i in range(repeat):
        result = None
        gc.collect()
        start = time.perf_counter()
        result = fn()
        took = time.perf_counter() - start
        best, spent = min(best, took), spent + took
        progress(f"  {what} {i + 1}/{repeat}: {took * 1e3:.1f} ms")
        if spent >= budget:
            break
    return best, result


def phases(kernel, args):
    """The call's three phases as nisa.nki.run splits them: (record, assemble, run) functions and
    (recording -> its text and input arrays). Through nisa.nki.run's internals where they are,
    else (or with NISA_BENCH_PUBLIC_API=1) through to_nasm, nisa.assemble and nisa.run. The
    text is only written for the simulator, outside the timed phases (a call writes none)."""
    internals = hasattr(nisa.nki, "_record_call") and hasattr(nisa.nki, "_assemble")
    if internals and not os.environ.get("NISA_BENCH_PUBLIC_API"):
        def record():
            return nisa.nki._record_call(kernel, args, {})

        def assemble(rec):
            return nisa.nki._assemble(rec)

        def run(rec, program):
            return nisa.run(program, rec.inputs)

        def text_and_inputs(rec):
            return rec.text, rec.inputs
    else:  # the internals changed: the public equivalents (inputs are named after the kernel's parameters)
        import inspect
        names = list(inspect.signature(kernel.fn).parameters)
        inputs = {n: a for n, a in zip(names, args) if isinstance(a, np.ndarray)}

        def record():
            return nisa.nki.to_nasm(kernel, *args)

        def assemble(text):
            return nisa.assemble(text)

        def run(text, program):
            return nisa.run(program, inputs)

        def text_and_inputs(text):
            return text, inputs
    return record, assemble, run, text_and_inputs


def collector_off():
    """The cyclic garbage collector off, as nisa.nki.run has it during a call."""
    return getattr(getattr(nisa.nki, "_record", None), "no_cyclic_gc", contextlib.nullcontext)()


def measure(name, target, repeat, budget, rng):
    kernel, make, _ = KERNELS[name]
    case = make(target, rng)
    args, label = case["args"], f"{name} {size_label(target)}"
    row = {"kernel": name, "size": size_label(target), "instructions": case["instructions"], "shape": case["shape"]}
    progress(f"{label}: {case['shape']}, {case['instructions']:,} instructions")
    record, assemble, run, text_and_inputs = phases(kernel, args)
    try:
        # Each repetition is a fresh sequence as in a call (a second nisa.run of the same
        # Program, "rerun", is faster: it finds the Program's run state warm).
        best = {"record": math.inf, "assemble": math.inf, "run": math.inf, "rerun": math.inf}
        spent = 0.0
        for i in range(repeat):
            rec = program = outputs = None
            gc.collect()
            with collector_off():  # as in a call: nisa.nki.run keeps it off until the recording is freed
                t0 = time.perf_counter()
                rec = record()
                t1 = time.perf_counter()
                program = assemble(rec)
                t2 = time.perf_counter()
                outputs = run(rec, program)
                t3 = time.perf_counter()
                outputs = None
                outputs = run(rec, program)
                t4 = time.perf_counter()
            for key, took in (("record", t1 - t0), ("assemble", t2 - t1), ("run", t3 - t2), ("rerun", t4 - t3)):
                best[key] = min(best[key], took)
            spent += t4 - t0
            progress(f"  {label} record, assemble, run, rerun {i + 1}/{repeat}: {(t1 - t0) * 1e3:.1f}, "
                     f"{(t2 - t1) * 1e3:.1f}, {(t3 - t2) * 1e3:.1f}, {(t4 - t3) * 1e3:.1f} ms")
            if spent >= budget:
                break
        row.update(best)
        row["instructions"] = len(program)
        text, inputs = text_and_inputs(rec)
        del outputs, program, rec
        row["call"], result = best_of(lambda: kernel(*args), repeat, budget, f"{label} whole call")
    except nisa.Error as e:
        row["error"] = str(e).splitlines()[0]
        progress(f"{label}: failed: {row['error']}")
        return row
    row["numpy"], expected = best_of(case["numpy"], repeat, budget, f"{label} vectorised numpy")
    ok_numpy = np.allclose(result, expected, rtol=case["rtol"], atol=case["atol"])
    del expected

    start = time.perf_counter()
    prog = instruction_simulator.read_program(text)
    row["sim_read"] = time.perf_counter() - start
    del text

    def simulate():
        sim = instruction_simulator.Simulator(prog, inputs)
        steps = sim.steps()
        with np.errstate(all="ignore"):
            for step in steps:
                step()
        return sim.outputs()

    row["sim"], sim_outputs = best_of(simulate, repeat, budget, f"{label} per-instruction simulator")
    (simulated,) = sim_outputs.values()
    ok_sim = np.allclose(simulated, result, rtol=case["rtol"], atol=case["atol"])
    row["agree"] = ok_numpy and ok_sim
    if not row["agree"]:
        row["error"] = f"outputs differ: nisa vs numpy {'ok' if ok_numpy else 'DIFFER'}, " \
                       f"nisa vs simulator {'ok' if ok_sim else 'DIFFER'}"
        progress(f"{label}: {row['error']}")
    return row


# ---- tables ----

def ms(seconds):
    return f"{seconds * 1e3:.1f}"


def us_per(seconds, n):
    return f"{seconds * 1e6 / n:.1f}"


def table(rows, header):
    widths = [max(len(str(r[i])) for r in [header] + rows) for i in range(len(header))]
    lines = ["  ".join(str(c).ljust(w) if i == 0 else str(c).rjust(w) for i, (c, w) in enumerate(zip(header, widths)))]
    lines.append("  ".join("-" * w for w in widths))
    for r in rows:
        lines.append("  ".join(str(c).ljust(w) if i == 0 else str(c).rjust(w) for i, (c, w) in enumerate(zip(r, widths))))
    return "\n".join(lines)


HEADER = ["size", "instructions", "record ms", "us/i", "assemble ms", "us/i", "run ms", "us/i", "rerun ms", "call ms",
          "us/i",
          "numpy ms", "sim ms", "sim read ms", "call/sim", "call/numpy", "agree"]


def kernel_table(rows):
    out = []
    for r in rows:
        n = r["instructions"]
        if "call" not in r:
            out.append([r["size"], n] + ["-"] * (len(HEADER) - 3) + ["failed"])
            continue
        out.append([r["size"], n, ms(r["record"]), us_per(r["record"], n), ms(r["assemble"]), us_per(r["assemble"], n),
                    ms(r["run"]), us_per(r["run"], n), ms(r["rerun"]), ms(r["call"]), us_per(r["call"], n),
                    ms(r["numpy"]),
                    ms(r["sim"]), ms(r["sim_read"]), f"{r['call'] / r['sim']:.2f}", f"{r['call'] / r['numpy']:.2f}",
                    "yes" if r["agree"] else "NO"])
    return table(out, HEADER)


def exponent(rows, key):
    """The slope of a least-squares line through (log instructions, log time), or None."""
    points = [(math.log(r["instructions"]), math.log(r[key])) for r in rows if key in r and r[key] > 0]
    if len(points) < 2:
        return None
    xs, ys = zip(*points)
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in points) / sxx if sxx else None


# ---- peak memory of a call on a large input (child process) ----

def vm_hwm():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    return 0


RSS_TILE_N = 2048


def rss_child(input_bytes):
    """Runs in a fresh process: tensor_add on two float32 arrays of input_bytes / 2 each."""
    cols = RSS_TILE_N
    rows = max(128, input_bytes // 2 // 4 // cols // 128 * 128)
    rng = np.random.default_rng(25)
    a = rng.random((rows, cols), dtype=np.float32)
    b = rng.random((rows, cols), dtype=np.float32)
    before = vm_hwm()
    start = time.perf_counter()
    c = scaling_kernels.tensor_add(a, b, RSS_TILE_N)
    took = time.perf_counter() - start
    peak = vm_hwm()
    ok = all(np.array_equal(c[i:i + 4096], a[i:i + 4096] + b[i:i + 4096]) for i in range(0, rows, 4096))
    print(json.dumps({"input_bytes": a.nbytes + b.nbytes, "output_bytes": c.nbytes, "hwm_before": before,
                      "hwm_peak": peak, "seconds": took, "instructions": 4 * (rows // 128) * (cols // RSS_TILE_N),
                      "agree": ok}))


def measure_rss(gib):
    progress(f"peak RSS: tensor_add on {gib:g} GiB of float32 input, in a child process")
    proc = subprocess.run([sys.executable, os.path.abspath(__file__), "--rss-child", str(int(gib * 2 ** 30))],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        return {"error": (proc.stderr.strip().splitlines() or ["exit status %d" % proc.returncode])[-1]}
    return json.loads(proc.stdout.strip().splitlines()[-1])


# ---- main ----

def warm_memory(gib):
    """Touches `gib` GiB once and frees it. A fresh VM backs its guest memory
    on first touch (an exit to the hypervisor per page: zeroing a huge page
    then ran at ~0.7 GB/s, bench/README.md), so whichever side of a comparison
    allocates first would pay it; after this both sides find backed pages."""
    if gib <= 0:
        return
    progress(f"touching {gib:g} GiB once (a fresh VM backs memory on first touch)")
    block = np.ones(int(gib * (1 << 30)), dtype=np.uint8)
    del block


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="all",
                    help="small (1k and 10k), all (1k, 10k, 30k for softmax, 100k), or a list: 1k,10k,...")
    ap.add_argument("--repeat", type=int, default=3, help="runs per measurement, best taken (default 3)")
    ap.add_argument("--budget", type=float, default=8.0,
                    help="seconds after which a measurement stops repeating (default 8)")
    ap.add_argument("--kernels", default="tensor_add,softmax,matmul", help="which kernels (add, softmax, matmul)")
    ap.add_argument("--rss-gib", type=float, default=1.0, help="input size of the peak RSS measurement (default 1)")
    ap.add_argument("--no-rss", action="store_true", help="skip the peak RSS measurement")
    ap.add_argument("--warm-gib", type=float, default=4.0,
                    help="GiB of memory touched once before measuring (default 4; 0 to skip)")
    ap.add_argument("--rss-child", type=int, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.rss_child is not None:
        rss_child(args.rss_child)
        return 0

    kernels = []
    for k in args.kernels.split(","):
        if k.strip() not in ALIASES:
            ap.error(f"unknown kernel '{k}' (add, softmax, matmul)")
        kernels.append(ALIASES[k.strip()])
    if args.sizes == "all":
        sizes = DEFAULT_SIZES
    elif args.sizes == "small":
        sizes = {k: SMALL_SIZES for k in KERNELS}
    else:
        try:
            chosen = [parse_size(s) for s in args.sizes.split(",")]
        except ValueError:
            ap.error(f"--sizes: '{args.sizes}' is not small, all or a list of sizes like 1k,10k")
        sizes = {k: chosen for k in KERNELS}

    load = os.getloadavg()[0]
    started = time.perf_counter()
    warm_memory(args.warm_gib)
    results, failed = {}, False
    for name in kernels:
        rows = []
        for target in sizes[name]:
            row = measure(name, target, max(1, args.repeat), args.budget, np.random.default_rng(target))
            failed |= "error" in row
            rows.append(row)
            gc.collect()
        results[name] = rows
    rss = None if args.no_rss else measure_rss(args.rss_gib)

    print(f"Kernel calls at scale: wall times in ms, best of {args.repeat} (fewer past {args.budget:g} s), "
          f"one process per run of this script; load average {load:.2f} at the start")
    for name in kernels:
        rows = results[name]
        print()
        print(f"{name} ({KERNELS[name][2]})")
        print(kernel_table(rows))
        for r in rows:
            if "error" in r:
                print(f"  {r['size']}: {r['error']}")
        fits = {key: exponent(rows, key) for key in ("record", "assemble", "run", "call", "numpy", "sim")}
        span = [r["instructions"] for r in rows if "call" in r]
        if fits["call"] is not None:
            print(f"  fitted exponent of time vs instructions ({size_label(min(span))}..{size_label(max(span))}): "
                  + ", ".join(f"{k} {v:.2f}" for k, v in fits.items() if v is not None)
                  + f"  (target: call <= {TARGET_EXPONENT})")
        checks = []
        for r in rows:
            if "call" in r and r["instructions"] >= 9000:
                ratio = r["call"] / r["sim"]
                checks.append(f"call/sim {ratio:.2f} at {r['size']} ({'met' if ratio < TARGET_CALL_OVER_SIM else 'NOT met'})")
            if name == "softmax" and r["size"] == "30k" and "call" in r:
                ratio = r["call"] / r["numpy"]
                checks.append(f"call/numpy {ratio:.2f} at 30k (target <= {TARGET_SOFTMAX_OVER_NUMPY:g}: "
                              f"{'met' if ratio <= TARGET_SOFTMAX_OVER_NUMPY else 'NOT met'})")
        if fits["call"] is not None and max(span) >= 90000:
            checks.append(f"exponent {fits['call']:.2f} ({'met' if fits['call'] <= TARGET_EXPONENT else 'NOT met'})")
        if checks:
            print("  targets: " + "; ".join(checks))
    if rss is not None:
        print()
        if "error" in rss:
            print(f"peak RSS: failed: {rss['error']}")
            failed = True
        else:
            ratio = rss["hwm_peak"] / rss["input_bytes"]
            mib = 2 ** 20
            print(table([[f"tensor_add [{RSS_TILE_N}-column tiles]", rss["instructions"], f"{rss['input_bytes'] / mib:.0f}",
                          f"{rss['output_bytes'] / mib:.0f}", f"{rss['hwm_before'] / mib:.0f}",
                          f"{rss['hwm_peak'] / mib:.0f}", f"{ratio:.2f}", f"{rss['seconds'] * 1e3:.0f}",
                          "yes" if rss["agree"] else "NO"]],
                        ["peak RSS of one call", "instructions", "input MiB", "output MiB", "VmHWM before MiB",
                         "VmHWM peak MiB", "peak/input", "call ms", "agree"]))
            print(f"  VmHWM of the child process (Python, NumPy, nisa, both inputs, then the call); "
                  f"target: peak/input <= {TARGET_RSS_RATIO} ({'met' if ratio <= TARGET_RSS_RATIO else 'NOT met'})")
            failed |= not rss["agree"]
    progress(f"done in {time.perf_counter() - started:.0f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
