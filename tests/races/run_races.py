#!/usr/bin/python3
"""Races on shared HBM between cores (docs/SEMANTICS.md S16.5).

For every NAME.nasm here (each says in its header what it does):
  - with NAME.stderr: `nisa run --strict NAME.nasm` exits 3, prints exactly
    NAME.stderr (a race, both instructions named) and dumps nothing, and so
    does the program assembled to .nbin;
    without it: `--strict` exits 0 (no race) with the expected outputs;
  - without --strict every program runs, twice, with the same bytes both
    times, and those are the expected outputs below: the run's fixed order
    (core 0 before core 1 between meetings), derived by hand from each
    program's instructions;
  - device_print_reads.nasm prints core 0's text before core 1's.

usage: run_races.py PATH/TO/nisa
"""
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np

NISA = os.path.abspath(sys.argv[1])
HERE = os.path.dirname(os.path.abspath(__file__))
work = tempfile.mkdtemp(prefix="nisa_races_")
failures = []


def full(value, shape=(128, 8)):
    return np.full(shape, value, np.float32)


def rows_of(*parts, columns=8):
    """Rows from (count, value) pairs, top to bottom."""
    return np.concatenate([full(v, (n, columns)) for n, v in parts])


def iota(shape):
    return np.arange(np.prod(shape), dtype=np.float32).reshape(shape)


def write_after_read_a():
    a = iota((128, 8))
    a[127] = 5.0
    return a


def iota_with(shape, *minus_ones):
    x = iota(shape)
    for at in minus_ones:
        x[at] = -1.0
    return x


def scattered_out():
    out = full(0.0)
    out[[64, 65, 67]] = 1.0
    out[66] = 2.0
    return out


def halves(first, second):
    cols = np.empty((128, 8), np.float32)
    cols[:, :4], cols[:, 4:] = first, second
    return cols


# Outputs (and inouts) each program leaves without --strict.
EXPECTED = {
    "write_write": {"out": rows_of((64, 1.0), (64, 2.0))},
    "read_write": {"out": full(3.0), "got": full(3.0)},
    "write_after_read": {"a": write_after_read_a(), "got": iota((128, 8))},
    "barrier_orders": {"out": rows_of((64, 3.0), (64, 4.0)), "got": full(3.0), "back": full(3.0)},
    "after_barrier_race": {"out": rows_of((64, 3.0), (64, 4.0)), "got": full(3.0), "back": full(3.0)},
    "sendrecv_orders": {"out": full(3.0), "got": full(3.0), "swapped": np.array([[7.0, 6.0]], np.float32)},
    "disjoint_parts": {"rows": rows_of((64, 1.0), (64, 2.0)), "cols": halves(1.0, 2.0)},
    "runtime_index_race": {"out": scattered_out()},
    "runtime_index_disjoint": {"out": rows_of((66, 2.0), (4, 1.0), (58, 2.0)), "edge": rows_of((126, 2.0), (2, 1.0)),
                               "moved": rows_of((105, 2.0), (2, 1.0), (21, 2.0)),
                               "acc": rows_of((66, 2.0), (4, 1.0), (58, 2.0))},
    "list_operand_race": {"w": full(4.0, (16, 8)), "sum": full(7.0, (16, 8))},
    "device_print_reads": {"c0": iota((2, 4)), "c1": iota((2, 4))},
    "transpose_read_race": {"x": iota_with((4, 8), (1, 2)), "y": iota_with((4, 8), (1, 2)).T.copy()},
    "reversed_view_race": {"x": iota_with((4, 8), (3, 0), (0, 0)), "r": np.array([[26.0, 25.0, -1.0]], np.float32)},
}
PRINTED = {
    "device_print_reads": "".join(f"device_print_reads.nasm:{line}: core {core} f32 [2, 4]\n{iota((2, 4))}\n\n"
                                  for core, line in ((0, 10), (1, 13))),
}


def expect(name, condition, detail=""):
    if not condition:
        failures.append(f"{name}: {detail}")


def run(name, *args):
    dump = tempfile.mkdtemp(dir=work)
    p = subprocess.run([NISA, "run", name + ".nasm", *args, "--dump", dump], capture_output=True, text=True, cwd=work)
    return p, dump


def dumped(dump):
    return {f[:-4]: np.load(os.path.join(dump, f)) for f in sorted(os.listdir(dump)) if f.endswith(".npy")}


def expect_outputs(label, dump, want):
    got = dumped(dump)
    expect(label, sorted(got) == sorted(want), f"dumped {sorted(got)}, expected {sorted(want)}")
    for tensor, values in want.items():
        if tensor in got:
            expect(f"{label} {tensor}", got[tensor].dtype == values.dtype and np.array_equal(got[tensor], values),
                   f"got\n{got[tensor]}\nexpected\n{values}")


names = sorted(f[:-5] for f in os.listdir(HERE) if f.endswith(".nasm"))
expect("every program has its expected outputs", sorted(EXPECTED) == names, f"{sorted(EXPECTED)} vs {names}")
for name in names:
    shutil.copy(os.path.join(HERE, name + ".nasm"), work)
    stderr_file = os.path.join(HERE, name + ".stderr")
    strict, dump = run(name, "--strict")
    if os.path.exists(stderr_file):
        with open(stderr_file) as f:
            want = f.read()
        expect(f"{name} --strict exit", strict.returncode == 3, f"exit status {strict.returncode}, expected 3")
        expect(f"{name} --strict message", strict.stderr == want, f"stderr\n{strict.stderr}expected\n{want}")
        expect(f"{name} --strict dumps nothing", dumped(dump) == {}, "files were dumped")
        # The same from the .nbin (its line table names the .nasm's lines).
        nbin = os.path.join(work, name + ".nbin")
        subprocess.run([NISA, "asm", name + ".nasm", "-o", nbin], check=True, cwd=work)
        p = subprocess.run([NISA, "run", "--strict", nbin], capture_output=True, text=True, cwd=work)
        expect(f"{name} .nbin --strict", p.returncode == 3 and p.stderr == want, f"exit status {p.returncode}, stderr\n{p.stderr}")
    else:
        expect(f"{name} --strict exit", strict.returncode == 0, f"exit status {strict.returncode}: {strict.stderr}")
        expect(f"{name} --strict stderr", strict.stderr == "", strict.stderr)
        expect_outputs(f"{name} --strict", dump, EXPECTED.get(name, {}))
    # Without --strict: the fixed order's bytes, the same every run.
    first, dump1 = run(name)
    second, dump2 = run(name)
    for label, p in (("first", first), ("second", second)):
        expect(f"{name} {label} run", p.returncode == 0 and p.stderr == "", f"exit status {p.returncode}: {p.stderr}")
        expect(f"{name} {label} run's text", p.stdout == PRINTED.get(name, ""), f"stdout\n{p.stdout}")
    expect_outputs(f"{name} (not strict)", dump1, EXPECTED.get(name, {}))
    a, b = dumped(dump1), dumped(dump2)
    expect(f"{name} runs agree", sorted(a) == sorted(b) and all(a[k].tobytes() == b[k].tobytes() for k in a), "dumps differ")

shutil.rmtree(work, ignore_errors=True)
for failure in failures:
    print("FAIL", failure)
print(f"{len(names)} race programs, {len(failures)} failures")
sys.exit(1 if failures or not names else 0)
