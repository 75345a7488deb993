#!/usr/bin/python3
"""Inputs and expected outputs of dynamic_row_tiles (see prog.nasm's header);
`formula` is also what tests/programs/dynamic_row_counts.py holds nisa to for other counts."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "programs"))
from workload_data import Workload, assert_agrees  # noqa: E402

P, D, ROWS, EPS = 128, 512, 1024, 1e-6  # as the .equ lines of prog.nasm
N = 640  # the runtime row count of the committed input: 5 of the 8 tiles


def formula(x, gamma, n):
    """Direct formula, in float64: rmsnorm of the rows of the tiles that start below n."""
    done = -(-n // P) * P
    x64 = x.astype(np.float64)[:done]
    rstd = np.zeros((ROWS, 1))
    y = np.zeros((ROWS, D))
    rstd[:done] = 1.0 / np.sqrt((x64 ** 2).mean(axis=1, keepdims=True) + EPS)
    y[:done] = x64 * rstd[:done] * gamma
    return y.astype(np.float32), rstd.astype(np.float32), np.array([[done // P]], np.int32)


def main():
    work = Workload(__file__)
    rng = np.random.default_rng(20261127)
    x = (rng.standard_normal((ROWS, D)) * rng.uniform(0.05, 8.0, size=(ROWS, 1))).astype(np.float32)
    gamma = rng.uniform(0.5, 1.5, size=(1, D)).astype(np.float32)
    inputs = {"x": x, "gamma": gamma, "n_rows": np.array([[N]], np.int32)}
    work.save_inputs(inputs)
    out = work.reference_outputs(inputs)

    y, rstd, tiles = formula(x, gamma, N)
    assert_agrees("tiles", out["tiles"], tiles)
    assert_agrees("rstd", out["rstd"], rstd, rtol=2e-5)
    assert_agrees("y", out["y"], y, rtol=3e-5, atol=1e-9)


if __name__ == "__main__":
    main()
