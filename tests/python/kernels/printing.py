"""Kernels that print with nl.device_print (tests/python/test_device_print.py).
A line ending in `# LINE name` is the line a print or an error names."""
import numpy as np

import nki
import nki.isa as nisa
import nki.language as nl


@nki.jit
def before_and_after(a):
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    t = nl.load(a)
    nl.device_print("t before:", t)  # LINE before
    nisa.tensor_scalar(dst=t, data=t, op0=nl.multiply, operand0=2.0, op1=nl.add, operand1=1.0)
    nl.device_print("t after:", t)  # LINE after
    nl.store(out, value=t)
    return out


@nki.jit
def loop(a):
    """Three iterations that record the same two instructions (shared steps),
    then a print between two whole overwrites (the first would be a dead store)."""
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    t = nl.load(a)
    for _ in nl.affine_range(3):
        nisa.tensor_scalar(dst=t, data=t, op0=nl.add, operand0=1.0)
        nl.device_print("step", t)  # LINE step
    nisa.memset(dst=t, value=5.0)
    nl.device_print("fives", t[0:2, :])  # LINE fives
    nisa.memset(dst=t, value=6.0)
    nl.store(out, value=t)
    return out


@nki.jit
def memories(a, b):
    """An HBM parameter, a PSUM tile, an int32 view and a bf16 tile, each printed."""
    nl.device_print("a", a)  # LINE hbm
    p = nl.ndarray((2, 4), dtype=nl.float32, buffer=nl.psum)
    nisa.dma_copy(dst=p, src=a[0:2, 0:4])
    nl.device_print("p", p[1:2, 1:3])  # LINE psum
    ti = nl.load(b)
    nl.device_print("", ti[:, 2:5])  # LINE int
    h = nl.ndarray((1, 3), dtype=nl.bfloat16, buffer=nl.sbuf)
    nisa.memset(dst=h, value=0.1)
    nl.device_print("h = 0.1 in bf16", h)  # LINE bf16


@nki.jit
def faults_after_a_print(a):
    t = nl.load(a)
    nl.device_print("loaded", t)  # LINE loaded
    u = nl.ndarray((2, 2), dtype=nl.float32, buffer=nl.sbuf)
    nl.device_print("unwritten", u)  # LINE unwritten


@nki.jit
def prefix_not_str(a):
    nl.device_print(3, nl.load(a))  # LINE prefix_not_str


@nki.jit
def prefix_with_quote(a):
    nl.device_print('say "hi"', nl.load(a))  # LINE prefix_with_quote


@nki.jit
def prefix_with_newline(a):
    nl.device_print("two\nlines", nl.load(a))  # LINE prefix_with_newline


@nki.jit
def prints_a_number(a):
    nl.device_print("x", 3.0)  # LINE prints_a_number


@nki.jit
def prints_an_array(a):
    nl.device_print("x", np.zeros((2, 2), np.float32))  # LINE prints_an_array


@nki.jit
def prints_nothing(a):
    nl.device_print("x")  # LINE prints_nothing


KEPT = []


@nki.jit
def keeps_a_tile(a):
    KEPT.append(nl.load(a))


@nki.jit
def prints_a_kept_tile(a):
    nl.device_print("old", KEPT[-1])  # LINE prints_a_kept_tile
