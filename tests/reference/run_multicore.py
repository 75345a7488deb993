#!/usr/bin/python3
"""Random programs for two cores through nisa, against the NumPy model of two
cores (multicore.py): sendrecv (S16.2) and core_barrier (S16.3) as they meet,
each core's own SBUF, PSUM, accumulators and generators, and shared HBM.

    run_multicore.py --count N --seed S [--first K] [--keep DIR] [--nisa PATH] [--check-features]
                     [--programs PROG.nasm...]

For each program (gen_multicore.py): the model runs it under its in-order
schedule and under a seeded random one, which must agree (the program is race
free, so no interleaving may change a byte); nisa runs it as text, as its
.nbin, as its `nisa dis` text, or with --strict (in turn), and every output is
compared with the model's: the event outputs (x_*) bit for bit (a NaN's
payload only where bits were copied, not from sendrecv_compute's arithmetic), the random
bodies' outputs within gen_programs' tolerance (nisa diff). With --strict, the
first hazard of one of the cores must be nisa's fault line, or no fault.
--check-features fails when some kind of event (gen_multicore.FEATURES) never
came up. --programs adds hand-written programs for two cores (the workloads
of programs/, the round-trip forms of tests/dis/good/), run as text with
--strict and as .nbin, every output bit for bit. Exit 0 when every program
agrees.
"""
import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_multicore  # noqa: E402
import gen_programs  # noqa: E402
import multicore  # noqa: E402
import nasm_reader  # noqa: E402

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
FORMS = ["nasm", "nbin", "dis", "strict"]
RTOL, ATOL = 1e-5, 1e-6  # gen_programs.generate's, for the bodies' outputs
OWN_BITS = {"f32", "f16", "i8", "i16", "i32", "u8", "u16", "u32"}  # dtypes a .npy holds as they are


def model(text, inputs, schedule_seed):
    """The model's outputs, each core's first hazard and what --strict leaves open
    (gen_programs' strict_ambiguous); raises if two schedules disagree."""
    outputs, state = multicore.run(nasm_reader.read_program(text), inputs)
    again, _ = multicore.run(nasm_reader.read_program(text), inputs, schedule=schedule_seed)
    for name, array in outputs.items():
        if array.tobytes() != again[name].tobytes():
            raise AssertionError(f"the model's output {name} depends on the schedule: the program races")
    ambiguous = [why for m in state.m for why in m.ambiguous]
    return outputs, multicore.hazards(state), ambiguous


def run(cmd, folder):
    r = subprocess.run(cmd, cwd=folder, capture_output=True, text=True, timeout=60)
    return r, f"$ {' '.join(cmd)}\nexit {r.returncode}\n{r.stdout}{r.stderr}"


def different_bits(name, got, want, own_bits):
    """Why nisa's .npy of an event output is not the model's, bit for bit, or None.
    `own_bits`: the .npy holds the tensor's own bits (f32, f16, the integers); else
    (bf16, fp8: float32 in the .npy, LANGUAGE.md 3) the values went through a
    conversion at --input and --dump, where a NaN is a NaN and its payload is open
    (S2.2), as in the lockstep: only payloads that were copied as bits must agree."""
    if got.dtype != want.dtype or got.shape != want.shape:
        return f"{name}: nisa {got.dtype}{got.shape}, model {want.dtype}{want.shape}\n"
    same = got.view(np.uint8).reshape(got.shape + (-1,)) == want.view(np.uint8).reshape(want.shape + (-1,))
    same = same.all(axis=-1)
    if not own_bits:
        same |= np.isnan(got) & np.isnan(want)
    if same.all():
        return None
    first = tuple(np.argwhere(~same)[0])
    return f"{name}: {int((~same).sum())} elements not the model's bits; first at {first}: nisa {got[first]!r}, model {want[first]!r}\n"


def check(nisa, folder, inputs, expected, hazards, form, own_bits, exact):
    """None if nisa agrees with the model, else what differs; the outputs named
    in `exact` bit for bit, the others within the bodies' tolerance."""
    program = "prog.nasm"
    if form in ("nbin", "dis"):
        r, report = run([nisa, "asm", "prog.nasm", "-o", "prog.nbin"], folder)
        if r.returncode != 0:
            return report
        program = "prog.nbin"
        if form == "dis":
            r, report = run([nisa, "dis", "prog.nbin", "-o", "dis.nasm"], folder)
            if r.returncode != 0:
                return report
            program = "dis.nasm"
    cmd = [nisa, "run", program, "--dump", "out"] + (["--strict"] if form == "strict" else [])
    for name in sorted(inputs):
        cmd += ["--input", f"{name}=inputs/{name}.npy"]
    r, report = run(cmd, folder)
    if form == "strict" and hazards:
        if r.returncode != 3 or not any(r.stderr.startswith(f"{program}:{line}:") for line, _ in hazards):
            return report + "".join(f"expected: exit 3 at {program}:{line}: {why}\n" for line, why in hazards)
        return None
    if r.returncode != 0:
        return report
    for name, want in expected.items():
        got = np.load(os.path.join(folder, "out", name + ".npy"))
        if name in exact:
            problem = different_bits(name, got, want, own_bits[name] and not name.startswith("x_red"))
            if problem:
                return report + problem
    diff, report = run([nisa, "diff", "expected", "out", "--rtol", str(RTOL), "--atol", str(ATOL)], folder)
    return None if diff.returncode == 0 else report


def hand_program(nisa, path, folder):
    """A hand-written program, as text and with --strict (the model must see no
    hazard): every output bit for bit. None if nisa agrees with the model."""
    with open(path) as f:
        text = f.read()
    prog = nasm_reader.read_program(text)
    inputs = {}
    for name, d in prog.decls.items():
        npy = os.path.join(os.path.dirname(path), name + ".npy")
        if d.memory == "hbm" and d.role in ("input", "inout") and os.path.exists(npy):
            inputs[name] = np.load(npy)
    expected, hazards, _ = model(text, inputs, 1)
    if hazards:
        return f"the model finds a --strict hazard: {hazards}"
    gen_programs.write_program(folder, text, inputs, expected, {})
    own_bits = {name: d.dtype in OWN_BITS for name, d in prog.decls.items()}
    for form in ("strict", "nbin"):
        problem = check(nisa, folder, inputs, expected, [], form, own_bits, set(expected))
        if problem:
            return problem
    return None


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--count", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--first", type=int, default=0, help="index of the first program (to reproduce one)")
    ap.add_argument("--keep", metavar="DIR", help="keep the programs in DIR")
    ap.add_argument("--nisa", default=os.path.join(REPO, "build", "nisa"))
    ap.add_argument("--check-features", action="store_true", help="fail when an event kind never came up")
    ap.add_argument("--programs", nargs="*", default=[], metavar="PROG.nasm",
                    help="hand-written programs for two cores too (inputs: NAME.npy beside them, else INIT)")
    args = ap.parse_args(argv)
    nisa = os.path.abspath(args.nisa)
    root = args.keep or tempfile.mkdtemp(prefix="nisa_multicore_")
    seen, failed = {}, []
    for k, path in enumerate(args.programs):
        problem = hand_program(nisa, path, os.path.join(root, f"hand_{k}"))
        print(f"{'ok  ' if problem is None else 'FAILED'} {os.path.relpath(path, REPO)}", flush=True)
        if problem is not None:
            print(problem)
            failed.append(path)
    for k in range(args.first, args.first + args.count):
        seed = gen_programs.program_seed(args.seed, k)
        text, inputs, features = gen_multicore.build(seed)
        for f in features:
            seen[f] = seen.get(f, 0) + 1
        expected, hazards, ambiguous = model(text, inputs, seed)
        folder = os.path.join(root, f"prog_{k}")
        gen_programs.write_program(folder, text, inputs, expected, {})
        form = FORMS[k % len(FORMS)]
        if form == "strict" and ambiguous:  # --strict's outcome is open: compare the values only
            form = "nasm"
        own_bits = {name: d.dtype in OWN_BITS for name, d in nasm_reader.read_program(text).decls.items()}
        exact = {name for name in expected if name.startswith("x_")}
        problem = check(nisa, folder, inputs, expected, hazards, form, own_bits, exact)
        done = k - args.first + 1
        if problem is None:
            if done % 10 == 0 or done == args.count:
                print(f"[{done}/{args.count}] ok", flush=True)
            continue
        failed.append(k)
        print(f"[{done}/{args.count}] FAILED: program {k} (seed {seed}, run as {form})\n---- {folder}/prog.nasm\n{text}"
              f"---- nisa\n{problem}\nreproduce: {sys.argv[0]} --seed {args.seed} --first {k} --count 1 --keep DIR",
              flush=True)
        break
    if not args.keep:
        subprocess.run(["rm", "-rf", root])
    print("events: " + ", ".join(f"{f} {seen.get(f, 0)}" for f in gen_multicore.FEATURES))
    missing = [f for f in gen_multicore.FEATURES if not seen.get(f)]
    if failed:
        return 1
    if args.check_features and missing:
        print(f"never came up: {missing} (more programs, or another seed)")
        return 1
    print(f"all {args.count} random programs for two cores and {len(args.programs)} hand-written ones agree with the model")
    return 0


if __name__ == "__main__":
    sys.exit(main())
