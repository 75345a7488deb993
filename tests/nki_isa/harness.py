"""Runs one re-expressed NKI unit test case through `nisa run`.

Each `test_nki_isa_<name>.py` here follows one public NKI 0.6 unit test
(aws-neuron-sdk `nki/test/test_nki_isa_<name>.py`): the same shapes and input
generation, the kernel written as .nasm, and the expected values from that
test's own golden formula in NumPy. Never from nisa's output.

usage inside a test file:

    from harness import Case, main
    def test_example(nisa):
        out = nisa.run(NASM, inputs={"a": a}, outputs=["c"])
        nisa.close("c", out["c"], golden, rtol=1e-5)
    if __name__ == "__main__": main(globals())

`main` runs every `test_*` function with a `Case` and exits 1 on any failure,
naming the test, the output and the first mismatching index.
"""
import os
import shutil
import subprocess
import sys
import tempfile
import traceback

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "reference"))
import ref_dtypes  # noqa: E402  (the reference model's dtype conversions, S2)


def round_to(dtype, x):
    """float32 values rounded to nisa dtype `dtype` (bf16, fp8e4m3, ...) and
    back: what NKI's astype(dtype) gives, and what nisa reads from a float32
    .npy input of that dtype (LANGUAGE.md 3)."""
    return ref_dtypes.round_to(dtype, np.asarray(x, dtype=np.float32))


class Mismatch(AssertionError):
    pass


class Case:
    def __init__(self, nisa_exe, name):
        self.exe = nisa_exe
        self.name = name
        self.work = tempfile.mkdtemp(prefix=f"nki_isa_{name}_")

    def run(self, nasm, inputs=None, outputs=None, args=(), expect_status=0):
        """Assembles and runs `nasm` with the given .npy inputs; returns the
        dumped outputs by name (all dumped tensors when outputs is None)."""
        prog = os.path.join(self.work, "prog.nasm")
        with open(prog, "w") as f:
            f.write(nasm)
        cmd = [self.exe, "run", prog]
        for key, array in (inputs or {}).items():
            path = os.path.join(self.work, f"in_{key}.npy")
            np.save(path, array)
            cmd += ["--input", f"{key}={path}"]
        dump = os.path.join(self.work, "out")
        shutil.rmtree(dump, ignore_errors=True)
        cmd += ["--dump", dump, *args]
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode != expect_status:
            raise Mismatch(f"nisa run exited {p.returncode} (expected {expect_status}): {p.stderr.strip()}")
        if expect_status != 0:
            return p.stderr
        names = outputs if outputs is not None else [f[:-4] for f in os.listdir(dump) if f.endswith(".npy")]
        return {n: np.load(os.path.join(dump, f"{n}.npy")) for n in names}

    def close(self, what, actual, expected, rtol=0.0, atol=0.0):
        """actual == expected within rtol/atol (exact by default), same shape;
        NaN matches NaN."""
        actual = np.asarray(actual)
        expected = np.asarray(expected)
        if actual.shape != expected.shape:
            raise Mismatch(f"{what}: shape {actual.shape}, expected {expected.shape}")
        a = actual.astype(np.float64)
        e = expected.astype(np.float64)
        ok = np.isclose(a, e, rtol=rtol, atol=atol, equal_nan=True) | (a == e)
        if not ok.all():
            bad = tuple(int(i) for i in np.argwhere(~ok)[0])
            raise Mismatch(f"{what}: {int((~ok).sum())} of {ok.size} elements differ; first at {bad}: "
                           f"{actual[bad]!r}, expected {expected[bad]!r} (rtol={rtol}, atol={atol})")

    def equal(self, what, actual, expected):
        self.close(what, actual, expected)


def main(namespace):
    exe = sys.argv[1]
    tests = [(n, f) for n, f in namespace.items() if n.startswith("test_") and callable(f)]
    if not tests:
        print("no test_* functions", file=sys.stderr)
        sys.exit(1)
    failed = 0
    for name, fn in tests:
        case = Case(exe, name)
        try:
            fn(case)
            print(f"ok   {name}")
        except Exception as e:  # a failing case names itself and goes on to the next
            failed += 1
            detail = str(e) if isinstance(e, Mismatch) else traceback.format_exc()
            print(f"FAIL {name}: {detail}")
        finally:
            shutil.rmtree(case.work, ignore_errors=True)
    sys.exit(1 if failed else 0)
