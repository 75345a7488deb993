#!/usr/bin/python3
"""Bit-identical outputs across performance work (issue 16).

    output_identity.py --nisa build/nisa                 # compare with outputs.sha256
    output_identity.py --nisa build/nisa --record        # rewrite outputs.sha256
    output_identity.py --nisa build/nisa --plain-random N --seed S

Speed work (SIMD kernels, dead-store elimination, a second thread, huge pages)
must never change a result. Two checks:

1. Recorded hashes. Every workload program (programs/), every round-trip form
   (tests/dis/good/) and every benchmark program (bench/, with its REPS cut to
   a few) is run with `--dump` and `--dump-state`; the SHA-256 of each written
   file and the exit status are compared with `outputs.sha256`, recorded from
   the build before the speed work began (main at 8861684). This is a
   regression check, not a correctness one: correctness is the reference
   model's job (tests/reference). Re-record only when a change of semantics
   is intended, and say so in the commit.
2. Fast against plain. `--plain-random N` generates N random programs (the
   differential test's generator, tests/reference/gen_programs.py) and runs
   each twice, normally and with NISA_PLAIN_PATHS=1 (portable kernels, no
   dead-store elimination, one thread); every dumped byte must agree. The
   generator changes as instructions are added, so these need no record.

Both force the second thread (NISA_THREADS=2, which a busy machine would
not use by itself); the random programs also cut every step it could take
(NISA_SPLIT_MIN_ELEMENTS=1), since none of them is large.

Exit 0 when everything agrees, 1 otherwise (each difference is named).
"""
import argparse
import hashlib
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
MANIFEST = os.path.join(HERE, "outputs.sha256")
sys.path.insert(0, os.path.join(REPO, "tests", "programs"))
sys.path.insert(0, os.path.join(REPO, "tests", "reference"))
from run_programs import program_inputs  # noqa: E402

# Repetitions a benchmark program keeps: enough to pass through its loop body
# and its accumulator chain, few enough for CI.
BENCH_REPS = {"small_instructions_f32": 40}
BENCH_DEFAULT_REPS = 3
HBM_DECL = re.compile(r"^\s*\.hbm\s+([A-Za-z_]\w*)\s+(\w+)\s*\[([^\]]*)\]\s*(input|inout)\b(?!.*=)")
INT_NPY = {"u8": np.uint8, "i8": np.int8, "u16": np.uint16, "i16": np.int16, "u32": np.uint32, "i32": np.int32,
           "bool": np.uint8}


def made_up_input(dtype, shape):
    """A deterministic array for an input that has neither a .npy nor an INIT
    (the round-trip forms): small values of either sign, a few repeats."""
    count = int(np.prod(shape))
    values = (np.arange(count) * 7919 % 61) - 30
    if dtype in INT_NPY:
        kind = INT_NPY[dtype]
        if np.issubdtype(kind, np.unsignedinteger):
            values = np.abs(values)
        return values.astype(kind).reshape(shape)
    return (values.astype(np.float32) / 8).reshape(shape)


def input_arguments(text, folder, scratch):
    """--input NAME=FILE for each input tensor: the folder's NAME.npy, else a
    made-up array for a declaration without INIT."""
    args = []
    for name in program_inputs(text):
        path = os.path.join(folder, name + ".npy")
        if os.path.exists(path):
            args += ["--input", f"{name}={path}"]
    given = {a.split("=")[0] for a in args[1::2]}
    for line in text.splitlines():
        m = HBM_DECL.match(line)
        if m and m.group(1) not in given:
            shape = [int(d) for d in m.group(3).split(",")]
            path = os.path.join(scratch, m.group(1) + ".npy")
            np.save(path, made_up_input(m.group(2), shape))
            args += ["--input", f"{m.group(1)}={path}"]
    return args


def cases():
    """(name, program path, text, folder of its .npy inputs)."""
    found = []
    for root in ("programs", os.path.join("programs", "examples")):
        for name in sorted(os.listdir(os.path.join(REPO, root))):
            prog = os.path.join(REPO, root, name, "prog.nasm")
            if os.path.exists(prog):
                found.append((f"{root}/{name}", prog, None, os.path.dirname(prog)))
    for name in sorted(os.listdir(os.path.join(REPO, "tests", "dis", "good"))):
        if name.endswith(".nasm"):
            found.append((f"dis/{name}", os.path.join(REPO, "tests", "dis", "good", name), None, None))
    for name in sorted(os.listdir(os.path.join(REPO, "bench"))):
        if name.endswith(".nasm") and name != "memcpy_f32.nasm":
            with open(os.path.join(REPO, "bench", name)) as f:
                text = f.read()
            reps = BENCH_REPS.get(name[:-5], BENCH_DEFAULT_REPS)
            text = re.sub(r"^(\s*\.equ\s+REPS\s*,\s*)\d+", rf"\g<1>{reps}", text, flags=re.M)
            found.append((f"bench/{name}", None, text, None))
    return found


# The state dumps are ~30 MB a run: in memory when the machine offers it.
SCRATCH_ROOT = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None


def run_and_hash(nisa, program, text, folder, env_extra=None):
    """{file: sha256} of everything `nisa run` writes, plus its exit status."""
    with tempfile.TemporaryDirectory(prefix="nisa_identity_", dir=SCRATCH_ROOT) as scratch:
        if program is None:
            program = os.path.join(scratch, "prog.nasm")
            with open(program, "w") as f:
                f.write(text)
        else:
            with open(program) as f:
                text = f.read()
        cmd = [nisa, "run", program, *input_arguments(text, folder or scratch, scratch),
               "--dump", os.path.join(scratch, "out"), "--dump-state", os.path.join(scratch, "state")]
        env = dict(os.environ, **(env_extra or {}))
        run = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300)
        hashes = {"exit": str(run.returncode)}
        for sub in ("out", "state"):
            base = os.path.join(scratch, sub)
            for name in sorted(os.listdir(base)) if os.path.isdir(base) else []:
                with open(os.path.join(base, name), "rb") as f:
                    hashes[f"{sub}/{name}"] = hashlib.sha256(f.read()).hexdigest()
        return hashes, run.stderr


def read_manifest():
    table = {}
    with open(MANIFEST) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                case, file, digest = line.split()
                table.setdefault(case, {})[file] = digest
    return table


def write_manifest(results):
    with open(MANIFEST, "w") as f:
        f.write("# tests/identity/output_identity.py --record: case, file, SHA-256 (or exit status)\n")
        for case in sorted(results):
            for file in sorted(results[case]):
                f.write(f"{case} {file} {results[case][file]}\n")


def differences(case, want, got):
    lines = []
    for file in sorted(set(want) | set(got)):
        if want.get(file) != got.get(file):
            lines.append(f"{case}: {file}: recorded {want.get(file, 'nothing')}, now {got.get(file, 'nothing')}")
    return lines


def check_recorded(nisa, record):
    results, problems = {}, []
    table = {} if record else read_manifest()
    all_cases = cases()
    for i, (case, program, text, folder) in enumerate(all_cases, 1):
        print(f"[{i}/{len(all_cases)}] {case}", file=sys.stderr, flush=True)
        results[case], _ = run_and_hash(nisa, program, text, folder, {"NISA_THREADS": "2"})
        if not record:
            problems += differences(case, table.get(case, {}), results[case])
    if record:
        write_manifest(results)
        print(f"recorded {sum(len(v) for v in results.values())} hashes of {len(results)} cases in {MANIFEST}")
    else:
        problems += [f"{case}: recorded but no longer run" for case in sorted(set(table) - set(results))]
    return problems


def check_plain_random(nisa, count, seed):
    import gen_programs
    problems = []
    for k in range(count):
        program_seed = gen_programs.program_seed(seed, k)
        text, inputs, _, _ = gen_programs.generate(program_seed)
        with tempfile.TemporaryDirectory(prefix="nisa_identity_random_") as folder:
            for name, array in inputs.items():
                np.save(os.path.join(folder, name + ".npy"), array)
            fast, _ = run_and_hash(nisa, None, text, folder, {"NISA_THREADS": "2", "NISA_SPLIT_MIN_ELEMENTS": "1"})
            plain, _ = run_and_hash(nisa, None, text, folder, {"NISA_PLAIN_PATHS": "1"})
        problems += differences(f"random seed {seed} #{k}", plain, fast)
        if (k + 1) % 25 == 0:
            print(f"[{k + 1}/{count}] random programs fast == plain", file=sys.stderr, flush=True)
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--nisa", default=os.path.join(REPO, "build", "nisa"))
    ap.add_argument("--record", action="store_true", help="rewrite outputs.sha256 from this build")
    ap.add_argument("--plain-random", type=int, metavar="N", help="N random programs, fast against plain paths")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    if args.plain_random is not None:
        problems = check_plain_random(args.nisa, args.plain_random, args.seed)
    else:
        problems = check_recorded(args.nisa, args.record)
    for line in problems:
        print(line)
    if not problems and not args.record:
        print("all outputs bit-identical")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
