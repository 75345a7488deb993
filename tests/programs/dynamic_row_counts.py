#!/usr/bin/python3
"""programs/dynamic_row_tiles at other runtime row counts (SEMANTICS S17): the
same .nasm and .nbin, only n_rows.npy changes, and nisa's outputs are held to
the program's direct NumPy formula (make_data.formula: float64, within the
program's diff tolerance; the tile count exactly). A count past the buffer and
a negative one are runtime faults (exit 3) naming their line.

    dynamic_row_counts.py NISA_EXE
"""
import os
import subprocess
import sys
import tempfile

import numpy as np

NISA = os.path.abspath(sys.argv[1])
FOLDER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "programs", "dynamic_row_tiles")
sys.path.insert(0, FOLDER)
from make_data import formula  # noqa: E402

# counts: none, one row (a whole tile runs), one tile, a partial last tile, every tile
COUNTS = [0, 1, 128, 300, 1024]
# what `nisa run` says, exactly, for counts no run can take: the ninth tile's rows
# 1024.. are outside x (the loop's first dma_copy, line 55); a negative count (line 54)
FAULTS = {
    1025: "prog.nasm:55: error: dma_copy: index 1024 takes the view outside 'x' (524288 elements); "
          "oob_mode=skip skips such transfers\n",
    -5: "prog.nasm:54: error: fori_loop: upper -5 is below lower 0: a negative trip count (S17.2)\n",
}


def run(work, program, n):
    np.save(os.path.join(work, "n_rows.npy"), np.array([[n]], np.int32))
    dump = os.path.join(work, f"out_{os.path.basename(program)}_{n}")
    args = [NISA, "run", "--strict", program, "--dump", dump]
    for name in ("x", "gamma"):
        args += ["--input", f"{name}={os.path.join(FOLDER, name + '.npy')}"]
    args += ["--input", f"n_rows={os.path.join(work, 'n_rows.npy')}"]
    return subprocess.run(args, capture_output=True, text=True, cwd=FOLDER), dump


def main():
    failures = []
    x, gamma = np.load(os.path.join(FOLDER, "x.npy")), np.load(os.path.join(FOLDER, "gamma.npy"))
    with tempfile.TemporaryDirectory(prefix="nisa_dynamic_rows_") as work:
        binary = os.path.join(work, "prog.nbin")
        subprocess.run([NISA, "asm", "prog.nasm", "-o", binary], check=True, cwd=FOLDER)
        for program in ("prog.nasm", binary):
            for n in COUNTS:
                done, dump = run(work, program, n)
                if done.returncode != 0:
                    failures.append(f"{program} n={n}: exit {done.returncode}: {done.stderr.strip()}")
                    continue
                y, rstd, tiles = formula(x, gamma, n)
                got = {name: np.load(os.path.join(dump, name + ".npy")) for name in ("y", "rstd", "tiles")}
                if not np.array_equal(got["tiles"], tiles):
                    failures.append(f"{program} n={n}: tiles {got['tiles'].tolist()}, formula {tiles.tolist()}")
                for name, want in (("y", y), ("rstd", rstd)):
                    if not np.allclose(got[name], want, rtol=1e-5, atol=1e-6):
                        failures.append(f"{program} n={n}: {name} differs from the formula")
                    if not np.all(got[name][-(-n // 128) * 128:] == 0):
                        failures.append(f"{program} n={n}: {name} has rows past the last tile written")
                print(f"ok   {os.path.basename(program)} n={n}: {int(tiles[0, 0])} tile(s)")
            for n, message in FAULTS.items():
                done, _ = run(work, program, n)
                if done.returncode != 3 or done.stderr != message:
                    failures.append(f"{program} n={n}: exit {done.returncode}, stderr {done.stderr!r}; "
                                    f"expected exit 3 and {message!r}")
                else:
                    print(f"ok   {os.path.basename(program)} n={n}: exit 3, {done.stderr.strip()}")
    for f in failures:
        print("FAIL " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
