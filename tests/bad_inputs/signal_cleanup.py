#!/usr/bin/python3
"""Issue 15, group 7: SIGINT or SIGTERM during a large dump leaves no debris.

Starts `nisa run --dump` of 128 MB of outputs, waits until its temporary
files appear in the folder, sends the signal, and checks that nisa died of
that signal, that no temporary file is left and that no .npy was put in
place (the outputs are all or nothing). A run that finishes before a
temporary file is seen is tried again (at most ATTEMPTS times per signal).

Usage: signal_cleanup.py NISA_EXE
"""
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

NISA = os.path.abspath(sys.argv[1])
ATTEMPTS = 5

PROGRAM = "".join(f".hbm y{i} f32 [4096, 4096] output\n" for i in range(2))


def temporaries(folder):
    return [n for n in os.listdir(folder) if ".nisa-" in n] if os.path.isdir(folder) else []


def one_attempt(work, sig):
    """True when the signal hit while temporaries existed and nothing was left; None when too late."""
    out = os.path.join(work, "d")
    shutil.rmtree(out, ignore_errors=True)
    p = subprocess.Popen([NISA, "run", "p.nasm", "--dump", "d"], cwd=work, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 15
    while not temporaries(out) and p.poll() is None and time.monotonic() < deadline:
        time.sleep(0.002)
    if p.poll() is not None:
        return None
    if not temporaries(out):  # a very slow machine: give up on this attempt
        p.kill()
        p.wait()
        shutil.rmtree(out, ignore_errors=True)
        return None
    p.send_signal(sig)
    p.wait(timeout=30)
    left = os.listdir(out) if os.path.isdir(out) else []
    problems = []
    if p.returncode != -sig:
        problems.append(f"exit status {p.returncode}, expected death by signal {sig}")
    if left:
        problems.append(f"left in the folder: {left}")
    return problems


def main():
    work = tempfile.mkdtemp(prefix="nisa_signal_")
    with open(os.path.join(work, "p.nasm"), "w") as f:
        f.write(PROGRAM)
    failures = []
    for sig in (signal.SIGTERM, signal.SIGINT):
        for _ in range(ATTEMPTS):
            result = one_attempt(work, sig)
            if result is not None:
                failures += [f"{signal.Signals(sig).name}: {p}" for p in result]
                break
        else:
            failures.append(f"{signal.Signals(sig).name}: the run always finished before a temporary file was seen")
    shutil.rmtree(work)
    if failures:
        print("\n".join(failures))
        sys.exit(1)
    print("SIGTERM and SIGINT during a dump: nisa died of the signal and left no temporary file and no .npy")


main()
