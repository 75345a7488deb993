#!/usr/bin/env python3
"""Peak resident memory of one tensor-add run, against the size of its input
(issue 25): z = x + y on float32 [rows, 2048] inputs, x and y each half of the
input size, run by

  cli     `nisa run add.nasm --input x=x.npy --input y=y.npy --dump DIR`
          (peak = the CLI's own VmHWM, printed by --phase-times)
  run     `nisa.run(program, {"x": x, "y": y})` in a fresh Python process
  nki     an @nki.jit tensor-add kernel called on x and y, likewise

Each Python case runs in its own child process and reports that process's
VmHWM (its inputs, made before the call, included: what a user sees), so the
ratio `peak / input` is the issue's measure (goal: at most 1.7 at 1 GiB).
`before` is the child's resident memory just before the call.

  PYTHONPATH=build/python python3 bench/memory_peak.py [--sizes 1G,64M] [--nisa build/nisa]
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
N = 2048  # free elements per row; a tile is [128, N] float32 (8 KiB per partition)

CHILD = r"""
import sys, time, resource
import numpy as np
size, mode, nasm = int(sys.argv[1]), sys.argv[2], sys.argv[3]
N = 2048
rows = size // 2 // 4 // N

def kib(field):
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field):
                return int(line.split()[1])
    return 0

import nisa
x = np.full((rows, N), 1.5, dtype=np.float32)
y = np.full((rows, N), 2.25, dtype=np.float32)
if mode == "run":
    program = nisa.assemble(open(nasm).read())
else:
    import nisa.nki
    nisa.nki.install()
    import nki, nki.isa as ni, nki.language as nl

    @nki.jit
    def add(a, b):
        c = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
        ta = nl.ndarray(shape=(128, N), dtype=a.dtype, buffer=nl.sbuf)
        tb = nl.ndarray(shape=(128, N), dtype=a.dtype, buffer=nl.sbuf)
        for m in nl.affine_range(a.shape[0] // 128):
            ni.dma_copy(dst=ta, src=a[m * 128:(m + 1) * 128, :])
            ni.dma_copy(dst=tb, src=b[m * 128:(m + 1) * 128, :])
            ni.tensor_tensor(dst=ta, data1=ta, data2=tb, op=nl.add)
            ni.dma_copy(dst=c[m * 128:(m + 1) * 128, :], src=ta)
        return c
before = kib("VmRSS:")
t0 = time.perf_counter()
if mode == "run":
    z = nisa.run(program, {"x": x, "y": y})["z"]
else:
    z = add(x, y)
seconds = time.perf_counter() - t0
assert z.shape == x.shape and z[0, 0] == 3.75 and z[-1, -1] == 3.75
print(kib("VmHWM:"), before, seconds)
"""


def program_text(size):
    rows = size // 2 // 4 // N
    tiles = rows // 128
    return f"""; z = x + y on float32 [{rows}, {N}] ({tiles} tiles of [128, {N}])
.arch trn2
.hbm  x f32 [{rows}, {N}] input
.hbm  y f32 [{rows}, {N}] input
.hbm  z f32 [{rows}, {N}] output
.sbuf a f32 [128, {N}]
.sbuf b f32 [128, {N}]
.rept i, {tiles}
dma_copy dst=a, src=x[i * 128:(i + 1) * 128, :]
dma_copy dst=b, src=y[i * 128:(i + 1) * 128, :]
tensor_tensor dst=a, data1=a, data2=b, op=add
dma_copy dst=z[i * 128:(i + 1) * 128, :], src=a
.endr
"""


def parse_size(text):
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    text = text.strip().upper().rstrip("B").rstrip("I")
    if text and text[-1] in units:
        return int(float(text[:-1]) * units[text[-1]])
    return int(text)


def measure_cli(nisa, nasm, size, tmp):
    import numpy as np
    rows = size // 2 // 4 // N
    for name, value in (("x", 1.5), ("y", 2.25)):
        np.save(os.path.join(tmp, name + ".npy"), np.full((rows, N), value, dtype=np.float32))
    t0 = time.perf_counter()
    done = subprocess.run([nisa, "run", nasm, "--input", f"x={tmp}/x.npy", "--input", f"y={tmp}/y.npy",
                           "--dump", os.path.join(tmp, "out"), "--phase-times"],
                          capture_output=True, text=True, check=True)
    seconds = time.perf_counter() - t0
    peak = int(done.stderr.rsplit("peak RSS KiB", 1)[1].split()[0])
    for name in ("x.npy", "y.npy", "out/z.npy"):
        os.remove(os.path.join(tmp, name))
    return peak, 0, seconds


def measure_python(mode, nasm, size):
    done = subprocess.run([sys.executable, "-c", CHILD, str(size), mode, nasm],
                          capture_output=True, text=True, env=dict(os.environ))
    if done.returncode != 0:
        raise SystemExit(f"{mode} at {size} bytes failed:\n{done.stderr}")
    peak, before, seconds = done.stdout.split()
    return int(peak), int(before), float(seconds)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="64M,1G", help="total input bytes (x and y together), comma-separated")
    parser.add_argument("--nisa", default=os.path.join(ROOT, "build", "nisa"))
    parser.add_argument("--modes", default="cli,run,nki")
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for size in map(parse_size, args.sizes.split(",")):
            nasm = os.path.join(tmp, "add.nasm")
            with open(nasm, "w") as f:
                f.write(program_text(size))
            for mode in args.modes.split(","):
                if mode == "cli":
                    peak, before, seconds = measure_cli(args.nisa, nasm, size, tmp)
                else:
                    peak, before, seconds = measure_python(mode, nasm, size)
                rows.append((f"{size / (1 << 20):.0f} MiB", mode, f"{before / 1024:.0f}", f"{peak / 1024:.0f}",
                             f"{peak * 1024 / size:.2f}", f"{seconds:.2f}"))
                print(*rows[-1], file=sys.stderr, flush=True)
    header = ("input", "mode", "before MiB", "peak MiB", "peak/input", "seconds")
    widths = [max(len(r[i]) for r in rows + [header]) for i in range(len(header))]
    for r in [header] + rows:
        print("  ".join(c.rjust(w) for c, w in zip(r, widths)))


if __name__ == "__main__":
    main()
