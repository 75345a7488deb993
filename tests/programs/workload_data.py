"""What every programs/<name>/make_data.py shares: where to write, how to run the
reference model, and how to cross-check it against the kernel's direct NumPy formula.

A make_data.py script writes its inputs as programs/<name>/NAME.npy and the expected
outputs as programs/<name>/expected/NAME.npy; `--out DIR` writes both into DIR
instead (the data-currency test uses that to regenerate into a temporary folder).
Expected outputs come from the independent reference model tests/reference/nki_ref.py;
the direct formula only guards against a program that does not compute what its
header says.
"""
import argparse
import os
import sys

import numpy as np

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO_ROOT, "tests", "reference"))
import nki_ref  # noqa: E402
import ref_dtypes  # noqa: E402

FP32_MIN = np.float32(-3.4028234663852886e38)  # S2.4


class Workload:
    """One workload folder: its program, the output folder, and the files written."""

    def __init__(self, script_path):
        self.folder = os.path.dirname(os.path.abspath(script_path))
        parser = argparse.ArgumentParser(description=f"Write the inputs and expected outputs of {self.folder}.")
        parser.add_argument("--out", default=self.folder,
                            help="folder for NAME.npy inputs and expected/ (default: the workload folder)")
        self.out = parser.parse_args().out
        self.program = os.path.join(self.folder, "prog.nasm")

    def save_inputs(self, inputs):
        os.makedirs(self.out, exist_ok=True)
        for name, array in inputs.items():
            np.save(os.path.join(self.out, name + ".npy"), array)

    def reference_outputs(self, inputs):
        """Runs prog.nasm through the reference model, writes expected/, returns the outputs."""
        with open(self.program) as f:
            outputs, _ = nki_ref.run_program(f.read(), inputs)
        expected = os.path.join(self.out, "expected")
        os.makedirs(expected, exist_ok=True)
        for name, array in outputs.items():
            np.save(os.path.join(expected, name + ".npy"), array)
        return outputs


def round_to(dtype, values):
    """float32 values rounded to `dtype` (bf16, fp8, ...) and back to float32 (S2.2)."""
    return ref_dtypes.round_to(dtype, np.asarray(values, dtype=np.float32))


def assert_agrees(name, model, formula, rtol=0.0, atol=0.0):
    """The reference model's output equals the direct formula (exactly, unless a tolerance is given)."""
    model = np.asarray(model)
    formula = np.asarray(formula)
    if model.shape != formula.shape or model.dtype != formula.dtype:
        raise AssertionError(f"{name}: model {model.dtype}{model.shape} vs formula {formula.dtype}{formula.shape}")
    if rtol == 0.0 and atol == 0.0:
        ok = np.array_equal(model, formula, equal_nan=True)
    else:
        ok = np.allclose(model, formula, rtol=rtol, atol=atol, equal_nan=True)
    if not ok:
        bad = np.argwhere(~np.isclose(model, formula, rtol=rtol, atol=atol, equal_nan=True))
        first = tuple(bad[0])
        raise AssertionError(f"{name}: {len(bad)} elements differ; first at {first}: "
                             f"model {model[first]!r}, formula {formula[first]!r}")


def causal_softmax(scores, q_start):
    """Direct formula, in float64: softmax of each query row p (at position q_start + p)
    over the keys k <= q, zero elsewhere. Returns (row_max, numerators, row_sum)."""
    rows, keys = scores.shape
    q = q_start + np.arange(rows).reshape(-1, 1)
    visible = np.arange(keys).reshape(1, -1) <= q
    s = scores.astype(np.float64)
    row_max = np.where(visible, s, -np.inf).max(axis=1, keepdims=True)
    numerators = np.where(visible, np.exp(s - row_max), 0.0)
    return row_max, numerators, numerators.sum(axis=1, keepdims=True)
