#!/usr/bin/python3
"""Independent NumPy reference model of the nisa machine.

Written from NKI's instruction docstrings and docs/SEMANTICS.md, never from
nisa's C++ code: one module per instruction in instructions/ (its function
follows the NumPy form of its rule, S4), what they share in ref_common.py,
the machine in ref_machine.py. Usable as a library (run_program, SEMANTICS)
or like `nisa run`:

    nki_ref.py PROG.nasm [--input NAME=FILE.npy]... --dump DIR [--cores N]
"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import multicore  # noqa: E402
import nasm_reader  # noqa: E402
from instructions import SEMANTICS  # noqa: E402,F401 (one function per spec instruction)
from ref_loops import Walk  # noqa: E402
from ref_machine import LANE_IDLE, LANE_OK, Fault, Machine  # noqa: E402,F401 (LANE_*: bench/numpy_model.py)


def run_program(text, inputs, cores=None):
    """Runs .nasm text on {name: ndarray} inputs; returns ({output name: ndarray}, machine)
    (a program for several cores: multicore.run's outputs and its Run, whose .m are the cores' machines).
    `cores`: as `nisa run --cores N`, for a text without `.cores`."""
    prog = nasm_reader.read_program(text, cores)
    if prog.cores > 1:
        return multicore.run(prog, inputs)
    m = Machine(prog)
    m.load_inputs(inputs)
    for position in Walk(prog.instrs, m):  # in program order, runtime loops run (S17.2)
        ins = prog.instrs[position]
        m.line = ins.line
        try:
            SEMANTICS[ins.mnemonic](m, ins.ops)
        except Fault as e:  # what `nisa run` reports with exit status 3
            raise Fault(f"line {ins.line}: {ins.mnemonic}: {e}") from e
        except Exception as e:
            raise RuntimeError(f"line {ins.line}: {ins.mnemonic}: {e}") from e
    return m.outputs(), m


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("program")
    ap.add_argument("--input", action="append", default=[], metavar="NAME=FILE.npy")
    ap.add_argument("--dump", required=True, metavar="DIR")
    ap.add_argument("--cores", type=int, help="cores of a program without .cores (LANGUAGE.md 2.7)")
    args = ap.parse_args(argv)
    inputs = {}
    for item in args.input:
        name, _, path = item.partition("=")
        inputs[name] = np.load(path)
    with open(args.program) as f:
        outputs, _ = run_program(f.read(), inputs, args.cores)
    os.makedirs(args.dump, exist_ok=True)
    for name, arr in outputs.items():
        np.save(os.path.join(args.dump, name + ".npy"), arr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
