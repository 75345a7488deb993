#!/usr/bin/python3
"""device_print from the command line (docs/SEMANTICS.md S15.1, LANGUAGE.md 1).

prints.nasm prints tiles whose values follow from its iota inputs;
prints.stdout, written by hand, is the text it must print. Checked here:
  - `nisa run` prints exactly that, as .nasm and as .nbin (the prefix travels
    in the binary and `nisa dis` gives it back), with every scheduling
    speed-up on (dead stores, shared steps of a .rept, a second thread that
    cuts even small steps), off (NISA_PLAIN_PATHS=1) and with --strict;
  - each value block of prints.stdout is NumPy's str() of the array computed
    here (a second, independent derivation of the expected text);
  - the print between two whole overwrites keeps the first one running:
    without it, that memset is the run's one dead store;
  - --print-to FILE holds the same text and stdout nothing; the dumps are
    unchanged; a run that faults after printing writes no print file (the
    text printed so far still goes to stdout without --print-to); a print
    file that is the program itself, or a folder, is refused.

usage: run_prints.py PATH/TO/nisa
"""
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np

NISA = os.path.abspath(sys.argv[1])
HERE = os.path.dirname(os.path.abspath(__file__))
failures = []
work = tempfile.mkdtemp(prefix="nisa_prints_")


def path(name):
    return os.path.join(work, name)


def nisa(*args, env=None, cwd=None):
    full_env = dict(os.environ)
    for key in ("NISA_PLAIN_PATHS", "NISA_THREADS", "NISA_SPLIT_MIN_ELEMENTS"):
        full_env.pop(key, None)
    full_env.update(env or {})
    p = subprocess.run([NISA, *args], capture_output=True, text=True, cwd=cwd or work, env=full_env)
    return p.returncode, p.stdout, p.stderr


def expect(name, condition, detail=""):
    if not condition:
        failures.append(f"{name}: {detail}")


def expect_same_text(name, got, want):
    if got != want:
        first = next(i for i, (a, b) in enumerate(zip(got + "\0", want + "\1")) if a != b)
        failures.append(f"{name}: the text differs from character {first}:\n--- expected\n{want}--- got\n{got}")


shutil.copy(os.path.join(HERE, "prints.nasm"), path("prints.nasm"))
with open(os.path.join(HERE, "prints.stdout")) as f:
    EXPECTED = f.read()

# --- NumPy agrees with the hand-written text ------------------------------------
x = np.arange(32, dtype=np.float32).reshape(4, 8)
acc = np.arange(1024, dtype=np.float32).reshape(128, 8)
blocks = [x, (x * np.float32(0.5) + np.float32(0.25))[1:3, 0:8:2], x, x.reshape(-1)[[2, 1, 0, 10, 9, 8]].reshape(2, 3),
          np.ones((1, 8), np.float32), np.full((1, 8), 2, np.float32)]
blocks += [(acc + np.float32(1.5 * k))[0:2, 0:4] for k in (1, 2, 3)]
blocks += [acc + np.float32(4.5), np.arange(8192, dtype=np.int32).reshape(128, 64),
           np.full((2, 3), 0.333984375, np.float32),  # bf16 of float32(0.3333333), rounded to nearest even
           np.array([[1e-5, 250, -3.5, -np.inf]], np.float32), x[0:2, 0:2]]
texts = [b.split("\n", 1)[1] for b in EXPECTED.split("\n\n") if b]
expect("blocks", len(texts) == len(blocks), f"{len(texts)} printed blocks, {len(blocks)} arrays")
for k, (text, array) in enumerate(zip(texts, blocks)):
    expect_same_text(f"block {k} against numpy", text, str(array))

# --- the same text whatever runs it -------------------------------------------------
rc, _, err = nisa("asm", "prints.nasm", "-o", "prints.nbin")
expect("asm", rc == 0, err)
rc, dis, err = nisa("dis", "prints.nbin")
expect("dis", rc == 0 and 'print_prefix="x reversed; # , ="' in dis, err or dis)
with open(path("again.nasm"), "w") as f:
    f.write(dis)
rc, _, err = nisa("asm", "again.nasm", "-o", "again.nbin")
with open(path("prints.nbin"), "rb") as a, open(path("again.nbin"), "rb") as b:
    expect("dis round trip", rc == 0 and a.read() == b.read(), err or "the bytes differ")

variants = [
    ("default (dead stores, shared steps)", ["run", "prints.nasm"], {}),
    ("nbin", ["run", "prints.nbin"], {}),
    ("second thread on every step", ["run", "prints.nasm"], {"NISA_THREADS": "2", "NISA_SPLIT_MIN_ELEMENTS": "1"}),
    ("plain paths", ["run", "prints.nasm"], {"NISA_PLAIN_PATHS": "1"}),
    ("strict", ["run", "prints.nasm", "--strict"], {}),
]
for name, args, env in variants:
    rc, out, err = nisa(*args, env=env)
    expect(name, rc == 0, err)
    expect_same_text(name, out, EXPECTED)

# --- the print keeps the write it reads ---------------------------------------------
rc, _, err = nisa("run", "prints.nasm", "--phase-times")
expect("dead stores with the print", rc == 0 and "skipped as dead stores 0," in err, err)
with open(path("prints.nasm")) as f:
    without = f.read().replace('device_print print_prefix="ones", tensor=t[0:1, :]\n', "")
with open(path("without.nasm"), "w") as f:
    f.write(without)
rc, out, err = nisa("run", "without.nasm", "--phase-times")
expect("dead stores without the print", rc == 0 and "skipped as dead stores 1," in err and "ones" not in out, err)

# --- --print-to -------------------------------------------------------------------------
rc, out, err = nisa("run", "prints.nasm", "--print-to", "printed.txt", "--dump", "dump")
expect("--print-to", rc == 0 and out == "", err or out)
if os.path.exists(path("printed.txt")):
    with open(path("printed.txt")) as f:
        expect_same_text("--print-to file", f.read(), EXPECTED)
else:
    failures.append("--print-to: no file")
if os.path.exists(path("dump/y.npy")):
    expect("dump y", np.array_equal(np.load(path("dump/y.npy")), x * np.float32(0.5) + np.float32(0.25)))
    expect("dump z", np.array_equal(np.load(path("dump/z.npy")), acc + np.float32(4.5)))
else:
    failures.append("--dump: no y.npy")

faulting = """\
.hbm x f32 [2, 2] input = 7
.sbuf t f32 [2, 2]
.sbuf u f32 [2, 2]
dma_copy dst=t, src=x
device_print print_prefix="before the fault", tensor=t
device_print print_prefix="never printed", tensor=u
"""
with open(path("fault.nasm"), "w") as f:
    f.write(faulting)
rc, out, err = nisa("run", "fault.nasm", "--strict", "--print-to", "fault.txt")
expect("fault with --print-to", rc == 3 and "fault.nasm:6: error: reads an input element 0 of partition 0" in err, err)
expect("fault with --print-to leaves nothing", out == "" and not os.path.exists(path("fault.txt")) and
       not any(n.startswith(".fault.txt") for n in os.listdir(work)), f"{out!r} {os.listdir(work)}")
rc, out, err = nisa("run", "fault.nasm", "--strict")
expect("fault on stdout", rc == 3 and out == "fault.nasm:5: before the fault f32 [2, 2]\n[[7. 7.]\n [7. 7.]]\n\n", out + err)

rc, _, err = nisa("run", "prints.nasm", "--print-to", "prints.nasm")
expect("--print-to the program", rc == 2 and
       "prints.nasm: error: refusing to overwrite an input of this command (prints.nasm)" in err, err)
os.mkdir(path("folder"))
rc, _, err = nisa("run", "prints.nasm", "--print-to", "folder")
expect("--print-to a folder", rc == 2 and "folder: error: cannot write: Is a directory" in err, err)
with open(path("prints.nasm")) as f:
    expect("program untouched", f.read() == open(os.path.join(HERE, "prints.nasm")).read())

shutil.rmtree(work)
for f in failures:
    print("FAIL", f)
print(f"device_print: {len(failures)} failure(s)")
sys.exit(1 if failures else 0)
