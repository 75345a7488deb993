#!/usr/bin/python3
"""How nisa.nki's recording and the assembly of the recorded program scale
with program size (issue 25).

    PYTHONPATH=build/python /usr/bin/python3 bench/recording_scaling.py
        [--sizes 1000,10000,30000,100000] [--kernels softmax,tensor_add,matmul]
        [--run-max-mb 200] [--repeat 1] [--clock cpu|wall]

Records three of the project's tutorial kernels (tests/python/kernels/:
softmax, tensor_add, matmul's nki_matmul_tiled_) with inputs sized to give
about each number of instructions, then assembles the recorded text and, when
the kernel's HBM tensors hold at most --run-max-mb MB, runs it. Inputs are
zero-stride NumPy views (np.broadcast_to), so recording a 100k-instruction
kernel allocates no input data. Times, best of --repeat, are CPU times of
this process by default (the machine is often shared: bench/README.md), wall
times with --clock wall; a run on two threads counts both in CPU time:

  record    nisa.nki's recording of one call: the kernel's Python, placement,
            naming and the .nasm text (what nisa.nki.to_nasm does)
  assemble  nisa.assemble(text)
  run       nisa.run(program, inputs) (one thread count as the machine's
            default), "-" when skipped

Per kernel, the last line fits time = c * instructions^k (least squares on
log-log) to record + assemble and prints k: 1.0 is linear. A size whose
assembly fails prints the error's first words and is left out of the fit:
tensor_add at 100,000 instructions (25,000 [128, 512] f16 tiles, 3.3 GB per
tensor) is over the model's 1 GiB per HBM tensor (LANGUAGE.md 2.6), so it is
recorded only.
"""
import argparse
import gc
import math
import os
import sys
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

import nisa  # noqa: E402
import nisa.nki  # noqa: E402
from nisa.nki import _record_call  # noqa: E402

nisa.nki.install()
sys.path.insert(0, os.path.join(ROOT, "tests", "python", "kernels"))
import matmul  # noqa: E402
import softmax  # noqa: E402
import tensor_add  # noqa: E402


def zeros(shape, dtype):
    return np.broadcast_to(np.zeros(1, dtype), shape)


# Each kernel: (function, instructions -> arguments). The counts per loop
# iteration are the kernels' own: softmax 8 per 128-row tile (load, max,
# subtract, exp, sum, reciprocal, multiply, store); tensor_add 4 per
# [128, 512] tile; the tiled matmul 3 per K tile plus 2 per result tile.
def softmax_args(n):
    return (zeros((128 * max(1, round(n / 8)), 128), np.float32),)


def tensor_add_args(n):
    tiles = max(1, round(n / 4))
    cols = 25 if tiles >= 25 else tiles  # 25 tiles of 512 across
    rows = max(1, round(tiles / cols))
    shape = (128 * rows, 512 * cols)
    return zeros(shape, np.float16), zeros(shape, np.float16)


def matmul_args(n):
    k_tiles, n_tiles = 16, 8  # K = 2048, N = 4096: 8 * (3 * 16 + 2) = 400 instructions per 128 rows of M
    m_tiles = max(1, round(n / (n_tiles * (3 * k_tiles + 2))))
    return zeros((128 * k_tiles, 128 * m_tiles), np.float32), zeros((128 * k_tiles, 512 * n_tiles), np.float32)


KERNELS = {
    "softmax": (softmax.nki_softmax_kernel, softmax_args),
    "tensor_add": (tensor_add.nki_tensor_add, tensor_add_args),
    "matmul": (matmul.nki_matmul_tiled_, matmul_args),
}


CLOCK = time.process_time


def best(fn, repeat):
    result, times = None, []
    for _ in range(repeat):
        start = CLOCK()
        result = fn()
        times.append(CLOCK() - start)
    return result, min(times)


def fit_exponent(points):
    """k of time = c * n^k, least squares on (log n, log time)."""
    if len(points) < 2:
        return None
    xs = [math.log(n) for n, _ in points]
    ys = [math.log(t) for _, t in points]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx if sxx else None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,30000,100000")
    parser.add_argument("--kernels", default=",".join(KERNELS))
    parser.add_argument("--run-max-mb", type=float, default=200.0,
                        help="run only when the kernel's HBM tensors hold at most this many MB")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu")
    args = parser.parse_args()
    global CLOCK
    CLOCK = time.process_time if args.clock == "cpu" else time.perf_counter
    sizes = [int(s) for s in args.sizes.split(",")]

    header = ("kernel", "instructions", "record us/instr", "assemble us/instr", "run us/instr", "record s",
              "assemble s", "note")
    rows, fits = [], []
    for name in args.kernels.split(","):
        kernel, make_args = KERNELS[name]
        points = []
        for size in sizes:
            recorded = program = None
            gc.collect()  # the previous size's objects are not this one's time
            kernel_args = make_args(size)
            recorded, record_s = best(lambda: _record_call(kernel, kernel_args, {}), args.repeat)
            count = len(recorded.recording.instructions)
            note, assemble_s, run_s = "", None, None
            try:
                program, assemble_s = best(lambda: nisa.assemble(recorded.text), args.repeat)
            except nisa.Error as e:
                note = "assemble: " + str(e).splitlines()[0].split(" error: ", 1)[-1][:60]
                program = None
            hbm_mb = sum(s.partition_bytes() * s.shape[0] for s in recorded.recording.storages
                         if s.buffer == "hbm") / 1e6
            if program is not None and hbm_mb <= args.run_max_mb:
                _, run_s = best(lambda: nisa.run(program, recorded.inputs), args.repeat)
            elif program is not None:
                note = f"run skipped: {hbm_mb:.0f} MB of HBM tensors"
            if assemble_s is not None:
                points.append((count, record_s + assemble_s))

            def per(t):
                return "-" if t is None else f"{t / count * 1e6:.2f}"

            rows.append((name, str(count), per(record_s), per(assemble_s), per(run_s), f"{record_s:.3f}",
                         "-" if assemble_s is None else f"{assemble_s:.3f}", note))
            print(f"{name} {count}: record {record_s:.3f} s", file=sys.stderr, flush=True)
        k = fit_exponent(points)
        fits.append((name, "-" if k is None else f"{k:.2f}", len(points)))

    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(header)]
    right = [False, True, True, True, True, True, True, False]

    def line(cells):
        return "  ".join(c.rjust(w) if r else c.ljust(w) for c, w, r in zip(cells, widths, right)).rstrip()

    print(f"{args.clock} time")
    print(line(header))
    print(line(["-" * w for w in widths]))
    for row in rows:
        print(line(row))
    print()
    for name, k, n in fits:
        print(f"{name}: record + assemble time ~ instructions^{k} (log-log least squares over {n} sizes)")


if __name__ == "__main__":
    main()
