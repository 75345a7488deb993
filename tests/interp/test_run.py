#!/usr/bin/python3
"""End-to-end tests of `nisa run` (LANGUAGE.md section 1): NumPy writes the
input .npy files, nisa runs a .nasm (assembled in memory) or a .nbin, and the
dumped outputs are compared with expectations computed here in NumPy from
docs/SEMANTICS.md. Also checks exit statuses (2 bad input,
3 runtime fault) and that a failed run leaves no .npy in the dump folder.

usage: test_run.py PATH/TO/nisa
"""
import math
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np

NISA = sys.argv[1]
failures = []
work = tempfile.mkdtemp(prefix="nisa_run_")
FP32_MIN = np.float32(-3.4028234663852886e38)


def path(name):
    return os.path.join(work, name)


def write(name, text):
    with open(path(name), "w") as f:
        f.write(text)
    return path(name)


def save(name, array):
    np.save(path(name), array)
    return path(name)


def run(*args):
    p = subprocess.run([NISA, "run", *args], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def expect(name, condition, detail=""):
    if not condition:
        failures.append(f"{name}: {detail}")


def expect_run(name, args, status, stderr_has=()):
    rc, out, err = run(*args)
    expect(name, rc == status, f"exit status {rc}, expected {status}; stderr: {err.strip()}")
    for s in stderr_has:
        expect(name, s in err, f"stderr lacks {s!r}: {err.strip()}")
    return err


def exists(file):
    expect(file, os.path.exists(file), "missing")
    return os.path.exists(file)


def npy_files(folder):
    return sorted(f for f in os.listdir(folder) if f.endswith(".npy")) if os.path.isdir(folder) else []


# --- range_select, the LANGUAGE.md 2.3 example (S4.4) -------------
RANGE_SELECT = """\
.arch trn2
.hbm  x     f32 [128, 512] input
.hbm  lo    f32 [128, 1]   input
.hbm  hi    f32 [128, 1]   input
.hbm  y     f32 [128, 512] output
.hbm  m     f32 [128, 1]   output
.sbuf tx    f32 [128, 512]
.sbuf tlo   f32 [128, 1]
.sbuf thi   f32 [128, 1]
.sbuf tm    f32 [128, 1]

dma_copy dst=tx, src=x
dma_copy dst=tlo, src=lo
dma_copy dst=thi, src=hi
range_select dst=tx, on_true_tile=tx, comp_op0=greater_equal, comp_op1=less, bound0=tlo, bound1=thi, reduce_cmd=reset_reduce, reduce_res=tm, range_start=0, on_false_value=fp32.min
dma_copy dst=y, src=tx
dma_copy dst=m, src=tm
"""
rng = np.random.default_rng(3)
x = rng.standard_normal((128, 512)).astype(np.float32)
lo = rng.integers(-10, 400, (128, 1)).astype(np.float32)
hi = (lo + rng.integers(0, 200, (128, 1))).astype(np.float32)
lo[5, 0] = 1000  # an empty row: all fp32.min
idx = np.arange(512, dtype=np.float32)[None, :]
keep = (idx >= lo) & (idx < hi)
y_expected = np.where(keep, x, FP32_MIN).astype(np.float32)
m_expected = y_expected.max(axis=1, keepdims=True)
prog = write("range_select.nasm", RANGE_SELECT)
inputs = ["--input", f"x={save('x.npy', x)}", "--input", f"lo={save('lo.npy', lo)}", "--input", f"hi={save('hi.npy', hi)}"]
expect_run("range_select", [prog, *inputs, "--dump", path("out_rs")], 0)
if exists(path("out_rs/y.npy")):
    expect("range_select y", np.array_equal(np.load(path("out_rs/y.npy")), y_expected))
    expect("range_select m", np.array_equal(np.load(path("out_rs/m.npy")), m_expected))
    expect("range_select files", npy_files(path("out_rs")) == ["m.npy", "y.npy"], str(npy_files(path("out_rs"))))

# The same through a .nbin, with --strict (every byte read was written).
rc = subprocess.run([NISA, "asm", prog, "-o", path("range_select.nbin")], capture_output=True, text=True).returncode
expect("asm range_select", rc == 0)
expect_run("range_select nbin strict", [path("range_select.nbin"), *inputs, "--strict", "--dump", path("out_rs2")], 0)
if exists(path("out_rs2/y.npy")):
    expect("range_select nbin y", np.array_equal(np.load(path("out_rs2/y.npy")), y_expected))

# --- nonzero_with_count, S4.1 example; INIT values -----------------------
NONZERO = """\
.arch trn2
.hbm  x   f32 [128, 8] input
.hbm  r   i32 [128, 9] output
.hbm  fill i32 [128, 9] inout = 5
.sbuf t   f32 [128, 8]
.sbuf d   i32 [128, 9]
dma_copy dst=d, src=fill
dma_copy dst=t, src=x
nonzero_with_count dst=d, src=t, index_offset=16, padding_val=-1
dma_copy dst=r, src=d
"""
xs = np.tile(np.array([0, 1, 1, 0, 0, 1, 0, 0], np.float32), (128, 1))
xs[32, :] = [-0.0, np.nan, 0, 0, 0, 0, 0, np.inf]
r_expected = np.full((128, 9), 5, np.int32)
for p in range(0, 128, 16):
    nz = [i + 16 for i in range(8) if xs[p, i] != 0 or np.isnan(xs[p, i])]
    r_expected[p] = nz + [-1] * (8 - len(nz)) + [len(nz)]
expect("S4.1 row", list(r_expected[0]) == [17, 18, 21, -1, -1, -1, -1, -1, 3])
prog = write("nonzero.nasm", NONZERO)
expect_run("nonzero", [prog, "--input", f"x={save('nz.npy', xs)}", "--dump", path("out_nz")], 0)
if exists(path("out_nz/r.npy")):
    expect("nonzero r", np.array_equal(np.load(path("out_nz/r.npy")), r_expected), str(np.load(path("out_nz/r.npy"))[:33:16]))
    expect("nonzero inout", np.array_equal(np.load(path("out_nz/fill.npy")), np.full((128, 9), 5, np.int32)))

# --- activate2 (trn3; S4.5, NKI's example gelu(2x + 0.5)) with a bf16 output ----
ACTIVATE2 = """\
.arch trn3
.hbm  x   f32 [64, 100] input
.hbm  y   f32 [64, 100] output
.hbm  yb  bf16 [64, 100] output
.hbm  s   f32 [64, 1] output
.sbuf t   f32 [64, 100]
.sbuf u   f32 [64, 100]
.sbuf ub  bf16 [64, 100]
.sbuf ts  f32 [64, 1]
dma_copy dst=t, src=x
activate2 dst=u, op=gelu, data=t, imm0=2.0, imm1=0.5, op0=multiply, op1=add, reduce_op=add, reduce_cmd=reset_reduce, reduce_res=ts
activate2 dst=ub, op=gelu, data=t, imm0=2.0, imm1=0.5, op0=multiply, op1=add
dma_copy dst=y, src=u
dma_copy dst=yb, src=ub
dma_copy dst=s, src=ts
"""
xa = rng.uniform(-4, 4, (64, 100)).astype(np.float32)
v = (xa * np.float32(2.0) + np.float32(0.5)).astype(np.float64)
erf = np.vectorize(math.erf)
ya = (0.5 * v * (1 + erf(v / math.sqrt(2)))).astype(np.float32)
prog = write("activate2.nasm", ACTIVATE2)
expect_run("activate2", [prog, "--input", f"x={save('xa.npy', xa)}", "--dump", path("out_a2")], 0)
if exists(path("out_a2/y.npy")):
    got = np.load(path("out_a2/y.npy"))
    expect("activate2 y", np.allclose(got, ya, rtol=1e-5, atol=1e-6), str(np.abs(got - ya).max()))
    gotb = np.load(path("out_a2/yb.npy"))  # a bf16 output is written as float32 (LANGUAGE.md 3)
    expect("activate2 bf16 y", gotb.dtype == np.float32 and np.allclose(gotb, ya, rtol=2 ** -8, atol=1e-6))
    s = np.load(path("out_a2/s.npy"))
    expect("activate2 sum", np.allclose(s[:, 0], ya.astype(np.float64).sum(axis=1), rtol=1e-5, atol=1e-4))

# --- bf16 and fp8 dumps (LANGUAGE.md 1, 3): float32 by default, widened exactly;
# --dump-dtypes=ml_dtypes: their bits under ml_dtypes' names -----------------
# dtype: (ml_dtypes name, [(value, its bits, the bits of its float32)]), derived
# by hand from S2.2's formats: 1.0, -2.5, the largest finite, the smallest
# subnormal. bf16 1,8,7 bias 127; fp8e4m3 1,4,3 bias 7 (max 240 = 1.875 * 2^7);
# fp8e4m3fn 1,4,3 bias 7 (max 448 = 1.75 * 2^8); fp8e5m2 1,5,2 bias 15.
MINIFLOATS = {
    "bf16": ("bfloat16", [(1.0, 0x3F80, 0x3F800000), (-2.5, 0xC020, 0xC0200000),
                          (3.3895313892515355e38, 0x7F7F, 0x7F7F0000), (2.0 ** -133, 0x0001, 0x00010000)]),
    "fp8e4m3": ("float8_e4m3", [(1.0, 0x38, 0x3F800000), (-2.5, 0xC2, 0xC0200000),
                                (240.0, 0x77, 0x43700000), (2.0 ** -9, 0x01, 0x3B000000)]),
    "fp8e4m3fn": ("float8_e4m3fn", [(1.0, 0x38, 0x3F800000), (-2.5, 0xC2, 0xC0200000),
                                    (448.0, 0x7E, 0x43E00000), (2.0 ** -9, 0x01, 0x3B000000)]),
    "fp8e5m2": ("float8_e5m2", [(1.0, 0x3C, 0x3F800000), (-2.5, 0xC1, 0xC0200000),
                                (57344.0, 0x7B, 0x47600000), (2.0 ** -16, 0x01, 0x37800000)]),
}
lines, mf_inputs = [], []
for dt in MINIFLOATS:
    lines += [f".hbm x_{dt} {dt} [1, 4] input", f".hbm y_{dt} {dt} [1, 4] output", f".sbuf t_{dt} {dt} [1, 4]",
              f"dma_copy dst=t_{dt}, src=x_{dt}", f"dma_copy dst=y_{dt}, src=t_{dt}"]
    values = np.array([[v for v, _, _ in MINIFLOATS[dt][1]]], np.float32)  # each exact in dt: no rounding
    mf_inputs += ["--input", f"x_{dt}={save(f'mf_{dt}.npy', values)}"]
prog = write("minifloats.nasm", "\n".join(sorted(lines, key=lambda t: not t.startswith("."))) + "\n")
expect_run("minifloat dump", [prog, *mf_inputs, "--dump", path("out_mf")], 0)
expect_run("minifloat dump as float32", [prog, *mf_inputs, "--dump", path("out_mf32"), "--dump-dtypes=float32"], 0)
expect_run("minifloat dump as ml_dtypes", [prog, *mf_inputs, "--dump", path("out_mfml"), "--dump-dtypes", "ml_dtypes"], 0)
for dt, (name, table) in MINIFLOATS.items():
    for folder in ("out_mf", "out_mf32"):
        if exists(path(f"{folder}/y_{dt}.npy")):
            got = np.load(path(f"{folder}/y_{dt}.npy"))  # NumPy alone reads it
            expect(f"{folder} {dt}", got.dtype == np.float32 and got.view(np.uint32).tolist() == [[w for _, _, w in table]],
                   f"{got.dtype} {got.view(np.uint32)}")
    if exists(path(f"out_mfml/y_{dt}.npy")):
        with open(path(f"out_mfml/y_{dt}.npy"), "rb") as f:  # read by hand: np.load needs ml_dtypes for the descr
            raw = f.read()
        header_end = 10 + int.from_bytes(raw[8:10], "little")
        header = raw[10:header_end].decode("latin1")
        bits = np.frombuffer(raw[header_end:], np.uint16 if dt == "bf16" else np.uint8)
        expect(f"ml_dtypes dump {dt} descr", f"'descr': '{name}'" in header and "'shape': (1, 4)" in header, header)
        expect(f"ml_dtypes dump {dt} bits", bits.tolist() == [b for _, b, _ in table], str(bits))
# The two forms hold the same values; the ml_dtypes form reads back bit for bit.
p = subprocess.run([NISA, "diff", path("out_mf"), path("out_mfml"), "--rtol", "0", "--atol", "0"], capture_output=True, text=True)
expect("minifloat dumps compare equal", p.returncode == 0 and "4 files match" in p.stdout, p.stdout + p.stderr)
again = [a.replace(path("mf_"), path("out_mfml/y_")) for a in mf_inputs]
expect_run("ml_dtypes dump read back", [prog, *again, "--dump", path("out_mf2"), "--dump-dtypes=ml_dtypes"], 0)
for dt in MINIFLOATS:
    if exists(path(f"out_mf2/y_{dt}.npy")):
        with open(path(f"out_mf2/y_{dt}.npy"), "rb") as f, open(path(f"out_mfml/y_{dt}.npy"), "rb") as g:
            expect(f"ml_dtypes dump {dt} read back", f.read() == g.read())
expect_run("--dump-dtypes without --dump", [prog, *mf_inputs, "--dump-dtypes=ml_dtypes"], 2, ["--dump"])
expect_run("--dump-dtypes of another name", [prog, *mf_inputs, "--dump", path("out_mfx"), "--dump-dtypes=bits"], 2,
           ["--dump-dtypes"])
expect("no dump (bad --dump-dtypes)", npy_files(path("out_mfx")) == [])

# --- select_reduce + tensor_copy_predicated (S4.2, S4.3) ----------------
SELECT = """\
.arch trn2
.hbm  x    f32 [128, 64] input
.hbm  pr   u8  [128, 64] input
.hbm  y    f32 [128, 64] output
.hbm  c    f32 [128, 64] output
.hbm  m    f32 [128, 1]  output
.sbuf tx   f32 [128, 64]
.sbuf tp   u8  [128, 64]
.sbuf ty   f32 [128, 64]
.sbuf tc   f32 [128, 64]
.sbuf tm   f32 [128, 1]
dma_copy dst=tx, src=x
dma_copy dst=tp, src=pr
select_reduce dst=ty, predicate=tp, on_true=tx, on_false=-1.5, reduce_res=tm, reduce_cmd=reset_reduce
memset dst=tc, value=7
tensor_copy_predicated dst=tc, src=tx, predicate=tp, reverse_pred=true
dma_copy dst=y, src=ty
dma_copy dst=c, src=tc
dma_copy dst=m, src=tm
"""
xs2 = rng.standard_normal((128, 64)).astype(np.float32)
pr = (rng.random((128, 64)) < 0.3).astype(np.uint8)
ys = np.where(pr != 0, xs2, np.float32(-1.5))
prog = write("select.nasm", SELECT)
expect_run("select", [prog, "--input", f"x={save('xs2.npy', xs2)}", "--input", f"pr={save('pr.npy', pr)}",
                      "--dump", path("out_sel")], 0)
if exists(path("out_sel/y.npy")):
    expect("select y", np.array_equal(np.load(path("out_sel/y.npy")), ys))
    expect("select m", np.array_equal(np.load(path("out_sel/m.npy")), ys.max(axis=1, keepdims=True)))
    expect("copy_predicated", np.array_equal(np.load(path("out_sel/c.npy")), np.where(pr == 0, xs2, np.float32(7))))

# --- --dump-state -------------------------------------------------------------
expect_run("dump-state", [prog, "--input", f"x={path('xs2.npy')}", "--input", f"pr={path('pr.npy')}",
                          "--dump-state", path("state")], 0)
if exists(path("state/sbuf.npy")):
    sb = np.load(path("state/sbuf.npy"))
    expect("state sbuf", sb.dtype == np.uint8 and sb.shape == (128, 229376), str(sb.shape))
    expect("state psum", np.load(path("state/psum.npy")).shape == (128, 16384))
    va = np.load(path("state/vector_accumulator.npy"))
    expect("state vector acc", va.dtype == np.float32 and np.array_equal(va, ys.max(axis=1)))
    expect("state scalar acc", np.array_equal(np.load(path("state/scalar_accumulator.npy")), np.zeros(128, np.float32)))

# --- errors: exit 2 -----------------------------------------------------------
prog = path("range_select.nasm")
expect_run("unknown input", [prog, *inputs, "--input", f"y={path('x.npy')}"], 2, ["not declared input or inout"])
expect_run("no such tensor", [prog, *inputs, "--input", f"zz={path('x.npy')}"], 2, ["no tensor named 'zz'"])
expect_run("input twice", [prog, *inputs, "--input", f"x={path('x.npy')}"], 2, ["given twice"])
expect_run("missing input", [prog, "--input", f"x={path('x.npy')}", "--input", f"lo={path('lo.npy')}"], 2,
           ["range_select.nasm:4: error:", "'hi'"])
expect_run("wrong shape", [prog, "--input", f"x={path('lo.npy')}", "--input", f"lo={path('lo.npy')}",
                           "--input", f"hi={path('hi.npy')}", "--dump", path("out_bad")], 2, ["shape"])
expect("no partial dump (bad input)", npy_files(path("out_bad")) == [])
# --profile / --trace work now (SEMANTICS S6); tests/profile covers them.
expect_run("profile", [prog, *inputs, "--profile"], 0)
expect_run("trace", [prog, *inputs, "--trace", path("t.json")], 0)
exists(path("t.json"))
bad = write("bad.nasm", ".hbm x f32 [4] output\nfrobnicate dst=x\n")
expect_run("bad source", [bad], 2, ["bad.nasm:2:"])

# --- runtime fault under --strict: exit 3, FILE:LINE, no dump ---------------
STRICT = """\
.arch trn2
.hbm  y   f32 [128, 16] output
.sbuf a   f32 [128, 16]
.sbuf b   f32 [128, 16]
memset dst=a[0:64], value=1
tensor_scalar dst=b, data=a, op0=add, operand0=1.0
dma_copy dst=y, src=b
"""
prog = write("strict.nasm", STRICT)
os.makedirs(path("out_strict"), exist_ok=True)
expect_run("strict fault", [prog, "--strict", "--dump", path("out_strict")], 3,
           ["strict.nasm:6: error: reads an input element 0 of partition 64"])
expect("no partial dump (fault)", npy_files(path("out_strict")) == [])
expect_run("same program without --strict", [prog, "--dump", path("out_strict")], 0)
if exists(path("out_strict/y.npy")):
    yy = np.load(path("out_strict/y.npy"))
    expect("unstrict values", np.all(yy[:64] == 2) and np.all(yy[64:] == 1))

if failures:
    print("\n".join(failures))
    print(f"{len(failures)} failure(s); files in {work}")
    sys.exit(1)
shutil.rmtree(work)
print("all nisa run end-to-end checks passed")
