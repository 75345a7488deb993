#!/usr/bin/python3
"""End-to-end tests of `nisa diff` (LANGUAGE.md section 1): NumPy writes pairs
of .npy files, the test runs nisa and checks the exit status (0 equal, 1
differ, 2 cannot compare) and the key text of the report.

usage: test_diff.py PATH/TO/nisa
"""
import os
import subprocess
import sys
import tempfile

import numpy as np

NISA = sys.argv[1]
failures = []


def run(*args):
    p = subprocess.run([NISA, "diff", *args], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def check(name, args, status, stdout_has=(), stderr_has=(), stdout_lacks=()):
    rc, out, err = run(*args)
    problems = []
    if rc != status:
        problems.append(f"exit status {rc}, expected {status}")
    problems += [f"stdout lacks {s!r}" for s in stdout_has if s not in out]
    problems += [f"stderr lacks {s!r}" for s in stderr_has if s not in err]
    problems += [f"stdout has {s!r}" for s in stdout_lacks if s in out]
    if status == 2 and out:
        problems.append("printed a report although it cannot compare")
    if problems:
        failures.append(name)
        print(f"FAIL {name}: " + "; ".join(problems))
        print("  stdout: " + out.replace("\n", "\n          "))
        print("  stderr: " + err)
    else:
        print(f"ok   {name}")


def main():
    with tempfile.TemporaryDirectory() as d:
        def path(name):
            return os.path.join(d, name)

        def save(name, array):
            np.save(path(name), array)
            return path(name)

        base = (np.arange(20 * 30, dtype=np.float32).reshape(20, 30) - 300) / 7
        e = save("e.npy", base)
        check("identical files", [e, save("same.npy", base.copy())], 0, ["match", "600 float32 elements"])

        # Within the default tolerance: |a-e| <= 1e-6 + 1e-5*|e|.
        close = base * np.float32(1 + 2e-6)
        check("within default tolerance", [e, save("close.npy", close)], 0, ["match"])
        check("-0.0 equals 0.0", [save("z.npy", np.zeros(4, np.float32)), save("nz.npy", -np.zeros(4, np.float32))], 0)

        off = base.copy()
        off[3, 17] = 1.25
        check("outside tolerance", [e, save("off.npy", off)], 1,
              ["1 of 600 float32 elements outside rtol 1e-05, atol 1e-06", "[3, 17]", str(base[3, 17]), "1.25",
               "max abs error", "max rel error", "index", "expected", "actual"])
        check("the wider --atol accepts it", [e, path("off.npy"), "--atol", "30"], 0, ["match"])
        check("--rtol accepts it", [e, path("off.npy"), "--rtol", "1.1"], 0, ["match"])
        just_out = base.copy()
        just_out[0, 0] += np.float32(0.01)
        check("--atol just too small", [e, save("just.npy", just_out), "--atol", "0.001"], 1, ["[0, 0]"])

        many = base + 1
        check("many mismatches list the first 10", [e, save("many.npy", many)], 1,
              ["600 of 600", "[0, 0]", "[0, 9]", "... and 590 more"], stdout_lacks=["[0, 10]"])

        nan_e = np.array([1.0, np.nan, 3.0, np.inf, -np.inf], np.float32)
        check("NaN equals NaN, inf equals the same inf", [save("n1.npy", nan_e), save("n2.npy", nan_e.copy())], 0)
        nan_a = nan_e.copy()
        nan_a[0] = np.nan
        check("NaN vs number", [path("n1.npy"), save("n3.npy", nan_a)], 1, ["1 of 5", "[0]", "nan"])
        check("number vs NaN", [save("n3b.npy", nan_a), path("n1.npy")], 1, ["1 of 5", "[0]", "nan"])
        inf_a = nan_e.copy()
        inf_a[3] = -np.inf
        check("inf vs -inf", [path("n1.npy"), save("n4.npy", inf_a)], 1, ["1 of 5", "[3]", "-inf"])
        inf_b = nan_e.copy()
        inf_b[3] = 3e38
        check("inf vs finite, even with a huge atol", [path("n1.npy"), save("n5.npy", inf_b), "--atol", "1e39"], 1,
              ["[3]"])

        check("shape mismatch", [save("s1.npy", np.zeros((2, 3), np.float32)), save("s2.npy", np.zeros((3, 2), np.float32))],
              1, ["shape (2, 3) vs (3, 2)"])
        check("dtype mismatch", [save("d1.npy", np.zeros(3, np.float32)), save("d2.npy", np.zeros(3, np.float64))], 1,
              ["dtype float32 vs float64"])
        check("0-d arrays", [save("s0.npy", np.float32(2.5)), save("s0b.npy", np.float32(2.75))], 1, ["[]"])
        check("empty arrays match", [save("em1.npy", np.zeros((0, 4), np.float32)),
                                     save("em2.npy", np.zeros((0, 4), np.float32))], 0, ["match"])

        ints = np.arange(-5, 7, dtype=np.int32).reshape(3, 4)
        ints2 = ints.copy()
        ints2[2, 1] += 1
        check("integers equal", [save("i1.npy", ints), save("i1b.npy", ints.copy())], 0, ["match", "int32"])
        check("integers are exact whatever the tolerance", [path("i1.npy"), save("i2.npy", ints2), "--atol", "100"], 1,
              ["1 of 12 int32 elements differ", "[2, 1]"])
        big = np.array([2**62 + 1], np.int64)
        check("int64 beyond 2^53 exact", [save("b1.npy", big), save("b2.npy", big + 1)], 1, ["4611686018427387905"])
        for t in (np.int8, np.uint8, np.int16, np.uint16, np.uint32, np.uint64, np.bool_):
            a = np.array([0, 1, 1], t)
            b = np.array([0, 1, 0], t)
            check(f"{np.dtype(t).name} data", [save(f"t1_{t.__name__}.npy", a), save(f"t2_{t.__name__}.npy", b)], 1,
                  ["[2]", np.dtype(t).name])
        h = np.array([1.0, 2.0, 65504.0], np.float16)
        h2 = h.copy()
        h2[2] = np.inf
        check("float16", [save("h1.npy", h), save("h2.npy", h2)], 1, ["float16", "[2]", "65504", "inf"])

        # bf16 as `nisa run --dump-dtypes=ml_dtypes` writes it (its bits under ml_dtypes'
        # name) against float32 by value, over more than one chunk (2^20 elements).
        def save_named(name, descr, bits):
            with open(path(name), "wb") as f:
                np.lib.format.write_array_header_1_0(f, {"descr": descr, "fortran_order": False, "shape": bits.shape})
                f.write(bits.tobytes())
            return path(name)

        n = (1 << 20) + 1000
        halves = (np.arange(n) % 511 - 255).astype(np.float32) / 2  # exact in bf16 (at most 8 significant bits)
        bf16_bits = (halves.view(np.uint32) >> 16).astype(np.uint16)
        b16 = save_named("b16.npy", "bfloat16", bf16_bits)
        f32 = save("f32_halves.npy", halves)
        check("bfloat16 against float32 by value", [f32, b16, "--rtol", "0", "--atol", "0"], 0,
              [f"match: {n} float32 vs bfloat16 elements"])
        off = bf16_bits.copy()
        off[n - 3] += 1  # the last bit of one element in the second chunk
        check("bfloat16 differing past the first chunk", [f32, save_named("b16_off.npy", "bfloat16", off)], 1,
              [f"1 of {n} float32 vs bfloat16 elements", f"[{n - 3}]"])
        check("np.save's void form of a bfloat16 array reads as bfloat16",
              [save("v2.npy", bf16_bits.view("V2")), b16, "--rtol", "0", "--atol", "0"], 0, [f"{n} bfloat16 elements"])
        check("bfloat16 against float16 differs as a whole", [b16, save("h_halves.npy", halves.astype(np.float16))], 1,
              ["dtype bfloat16 vs float16"])

        # Header versions 2.0 and 3.0, as NumPy writes them.
        for version in ((2, 0), (3, 0)):
            name = path(f"v{version[0]}.npy")
            with open(name, "wb") as f:
                np.lib.format.write_array(f, base, version=version)
            check(f".npy version {version[0]}.0", [e, name], 0, ["match"])

        # Folders, compared by file name.
        for folder in ("exp", "act", "act_extra", "act_missing", "act_diff"):
            os.mkdir(path(folder))
        for folder in ("exp", "act", "act_extra", "act_diff"):
            np.save(os.path.join(path(folder), "x.npy"), base)
            np.save(os.path.join(path(folder), "y.npy"), ints)
        np.save(os.path.join(path("act_missing"), "x.npy"), base)
        np.save(os.path.join(path("act_extra"), "z.npy"), ints)
        np.save(os.path.join(path("act_diff"), "y.npy"), ints2)
        with open(os.path.join(path("act"), "notes.txt"), "w") as f:
            f.write("not an array\n")
        check("equal folders (other files ignored)", [path("exp"), path("act")], 0,
              ["x.npy: match", "y.npy: match", "all 2 files match"])
        check("extra file in ACTUAL", [path("exp"), path("act_extra")], 1,
              ["z.npy: differs: only in", "1 of 3 files differ", "x.npy: match"])
        check("file missing from ACTUAL", [path("exp"), path("act_missing")], 1,
              ["y.npy: differs: only in", "1 of 2 files differ"])
        check("one file differs", [path("exp"), path("act_diff")], 1, ["y.npy: differs", "[2, 1]", "x.npy: match"])

        # Cannot compare: exit 2, an error on stderr, no report.
        with open(path("bad.npy"), "wb") as f:
            f.write(b"\x93NUMPY\x01\x00\x10\x00{'descr': '<f4'")
        check("malformed file", [e, path("bad.npy")], 2, stderr_has=["bad.npy: error:"])
        with open(path("short.npy"), "wb") as f:
            f.write(open(e, "rb").read()[:-4])
        check("truncated data", [e, path("short.npy")], 2, stderr_has=["short.npy: error: data is 2396 bytes"])
        np.save(path("fortran.npy"), np.asfortranarray(base))
        # LANGUAGE.md 3: a Fortran-order file is the array it holds.
        check("Fortran order", [e, path("fortran.npy")], 0, stdout_has=["match: 600 float32"])
        zero = np.zeros(4, np.float32)
        with_nan = zero.copy()
        with_nan[2] = np.nan
        check("NaN against 0 is reported as NaN", [save("z.npy", zero), save("zn.npy", with_nan)], 1,
              stdout_has=["max abs error nan at [2]"])
        np.save(path("obj.npy"), np.array([1, "a"], dtype=object), allow_pickle=True)
        check("object array", [e, path("obj.npy")], 2, stderr_has=["object arrays are not supported"])
        np.save(path("be.npy"), base.astype(">f4"))
        check("big-endian", [e, path("be.npy")], 2, stderr_has=["big-endian"])
        check("missing file", [e, path("nope.npy")], 2, stderr_has=["nope.npy: error: cannot read"])
        check("folder vs file", [path("exp"), e], 2, stderr_has=["cannot compare folder"])
        os.mkdir(path("exp_bad"))
        np.save(os.path.join(path("exp_bad"), "x.npy"), base)
        with open(os.path.join(path("exp_bad"), "y.npy"), "wb") as f:
            f.write(b"garbage")
        check("malformed file inside a folder", [path("exp_bad"), path("exp")], 2, stderr_has=["y.npy: error:"])
        check("negative tolerance", [e, e, "--rtol", "-1"], 2, stderr_has=["--rtol must be"])

    print(f"{len(failures)} failed" if failures else "all nisa diff tests passed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
