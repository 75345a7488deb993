#!/usr/bin/python3
"""Python-side speed of nisa (issue 14): what an in-process call costs.

    PYTHONPATH=build/python /usr/bin/python3 bench/python_api.py [--nisa build/nisa]

Measures, each as the median of many repetitions:
  1. nisa.run of an assembled 1-instruction program (a [1, 4] memset and its
     output), in process: microseconds per call;
  2. the same program through the CLI (`nisa run prog.nbin --dump DIR`, a new
     process each time): milliseconds per call, and the ratio;
  3. the softmax tutorial kernel (tests/python/kernels/softmax.py, [128, 512]
     float32) through nisa.nki: recording, assembling and running per call, and
     the recorded text's share (nisa.nki.to_nasm alone).
Prints an aligned table.
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

import nisa  # noqa: E402
import nisa.nki  # noqa: E402

ONE = """
.hbm y f32 [1, 4] output
.sbuf t f32 [1, 4]
memset dst=t, value=1.5
dma_copy dst=y, src=t
"""


def median_seconds(fn, repeats, warmup=3):
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--nisa", default=os.path.join(ROOT, "build", "nisa"))
    ap.add_argument("--repeats", type=int, default=2000)
    args = ap.parse_args()

    prog = nisa.assemble(ONE)
    assert nisa.run(prog)["y"].tolist() == [[1.5] * 4]
    in_process = median_seconds(lambda: nisa.run(prog), args.repeats)

    with tempfile.TemporaryDirectory(prefix="nisa_bench_py_") as work:
        nbin = os.path.join(work, "one.nbin")
        with open(nbin, "wb") as f:
            f.write(prog.to_nbin())
        dump = os.path.join(work, "out")
        cli = median_seconds(lambda: subprocess.run([args.nisa, "run", nbin, "--dump", dump], check=True),
                             max(20, args.repeats // 40))

    nisa.nki.install()
    sys.path.insert(0, os.path.join(ROOT, "tests", "python", "kernels"))
    import softmax  # noqa: E402  (the nki-samples softmax tutorial, run unchanged)
    a = np.random.default_rng(0).standard_normal((128, 512)).astype(np.float32)
    out = softmax.nki_softmax_kernel(a)
    ref = np.exp(a - a.max(axis=1, keepdims=True))
    assert np.allclose(out, ref / ref.sum(axis=1, keepdims=True), rtol=1e-4, atol=1e-6)
    kernel = median_seconds(lambda: softmax.nki_softmax_kernel(a), 50)
    record = median_seconds(lambda: nisa.nki.to_nasm(softmax.nki_softmax_kernel, a), 50)

    rows = [
        ("nisa.run, 1-instruction program, in process", f"{in_process * 1e6:.1f} us", "target < 100 us"),
        ("same program through the CLI (new process)", f"{cli * 1e3:.2f} ms", f"{cli / in_process:.0f}x the in-process call"),
        ("softmax kernel [128, 512]: record + assemble + run", f"{kernel * 1e3:.2f} ms", "target < 20 ms"),
        ("  of which recording the .nasm (to_nasm)", f"{record * 1e3:.2f} ms", ""),
    ]
    w0 = max(len(r[0]) for r in rows)
    w1 = max(len(r[1]) for r in rows)
    for r in rows:
        print(f"{r[0].ljust(w0)}  {r[1].rjust(w1)}  {r[2]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
