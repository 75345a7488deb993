#!/usr/bin/python3
"""Times `nisa asm` on 100,000-instruction programs and the start-up of `nisa run`
(issue 5 targets: under 0.1 s and under 5 ms; issue 16: a 4-element program
under 3 ms). See bench/README.md.

    scripts/bench-asm [--nisa build/nisa] [--runs 10]

CPU time (user + sys) of the whole process, because the benchmark machine is
shared: `perf stat` task-clock when perf is installed (mean of --runs),
otherwise the smallest rusage time of --runs runs. The `nisa run` cases also
get wall time from posix_spawn to exit, best and median of 10 x --runs runs
(a start of ~3 ms moves by a millisecond with the VM's scheduling). The
--dump case writes into the same folder every time, so all runs but the first
replace the last run's file (as a user re-running a program does).
"""
import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def perf_stat(cmd, runs):
    """(task-clock ms, page faults) from perf stat -r runs."""
    r = subprocess.run(["perf", "stat", "-r", str(runs), "-x", ",", "-e", "task-clock,page-faults"] + cmd,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    clock = faults = None
    for line in r.stderr.splitlines():
        parts = line.split(",")
        if len(parts) > 2 and parts[2].startswith("task-clock"):
            clock = float(parts[0])
        if len(parts) > 2 and parts[2].startswith("page-faults"):
            faults = float(parts[0])
    if clock is None:
        sys.exit("perf stat failed:\n" + r.stderr)
    return clock, faults


def rusage_min(cmd, runs):
    best = None
    for _ in range(runs):
        pid = os.fork()
        if pid == 0:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, 1)
            os.execv(cmd[0], cmd)
        _, status, ru = os.wait4(pid, 0)
        if os.waitstatus_to_exitcode(status) != 0:
            sys.exit("failed: " + " ".join(cmd))
        ms = (ru.ru_utime + ru.ru_stime) * 1000
        best = ms if best is None else min(best, ms)
    return best, None


def wall_times(cmd, runs):
    """(best, median) wall ms from posix_spawn to exit, stdout discarded."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        pid = os.posix_spawn(cmd[0], cmd, os.environ,
                             file_actions=[(os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0)])
        _, status = os.waitpid(pid, 0)
        times.append((time.perf_counter() - start) * 1000)
        if os.waitstatus_to_exitcode(status) != 0:
            sys.exit("failed: " + " ".join(cmd))
    return min(times), statistics.median(times)


def write_four_element_program(folder):
    """tiny.nasm (one input, one output of 4 float32 elements) and its input a.npy."""
    program = os.path.join(folder, "tiny.nasm")
    with open(program, "w") as f:
        f.write(".arch trn2\n"
                ".hbm  a    f32 [1, 4] input\n"
                ".hbm  b    f32 [1, 4] output\n"
                ".sbuf t    f32 [1, 4]\n"
                "dma_copy dst=t, src=a\n"
                "tensor_scalar dst=t, data=t, op0=multiply, operand0=2.0\n"
                "dma_copy dst=b, src=t\n")
    import numpy
    numpy.save(os.path.join(folder, "a.npy"), numpy.arange(4, dtype=numpy.float32).reshape(1, 4))
    return program


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nisa", default=os.path.join(ROOT, "build", "nisa"))
    ap.add_argument("--runs", type=int, default=10)
    args = ap.parse_args()
    nisa = os.path.abspath(args.nisa)
    measure = perf_stat if shutil.which("perf") else rusage_min
    with tempfile.TemporaryDirectory(prefix="nisa-bench-asm-") as tmp:
        subprocess.run([sys.executable, os.path.join(HERE, "make_asm_100k.py"), tmp], check=True)
        empty = os.path.join(tmp, "empty.nasm")
        with open(empty, "w") as f:
            f.write(".arch trn2\n")
        out = os.path.join(tmp, "out.nbin")
        tiny = write_four_element_program(tmp)
        tiny_input = "a=" + os.path.join(tmp, "a.npy")
        dump = os.path.join(tmp, "dump")
        cases = [
            ("asm flat 100k lines", [nisa, "asm", os.path.join(tmp, "asm_flat_100k.nasm"), "-o", out], "0.1 s"),
            ("asm .rept 100k", [nisa, "asm", os.path.join(tmp, "asm_rept_100k.nasm"), "-o", out], "0.1 s"),
            ("asm small_instructions_f32 (200k)", [nisa, "asm", os.path.join(HERE, "small_instructions_f32.nasm"), "-o", out], ""),
            ("run empty program", [nisa, "run", empty], "5 ms"),
            ("run 4-element program", [nisa, "run", tiny, "--input", tiny_input], "3 ms"),
            ("run 4-element program --dump (replacing)", [nisa, "run", tiny, "--input", tiny_input, "--dump", dump], ""),
            ("--help", [nisa, "--help"], ""),
        ]
        clock = "perf task-clock, mean of %d" % args.runs if measure is perf_stat else "user+sys, best of %d" % args.runs
        print("%-42s %10s %12s %10s %10s  %s" % ("case", "CPU ms", "page faults", "wall best", "median", "target"))
        for name, cmd, target in cases:
            ms, faults = measure(cmd, args.runs)
            wall = ("%10.2f %10.2f" % wall_times(cmd, 10 * args.runs)) if cmd[1] == "run" else "%10s %10s" % ("", "")
            print("%-42s %10.2f %12s %s  %s" % (name, ms, "" if faults is None else "%d" % faults, wall, target))
        print("(CPU: %s; wall: posix_spawn to exit, of %d runs; %s)" % (clock, 10 * args.runs, nisa))


if __name__ == "__main__":
    main()
