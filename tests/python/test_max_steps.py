"""The loop step limit from Python (SEMANTICS S17.2): nisa.run(max_steps=),
nisa.nki.run(kernel, ..., max_steps=) and @nki.jit(max_steps=); and a
profiled kernel's loop body rows showing their runs (S17.4)."""
import os
import re
import sys
import time

import numpy as np
import pytest

import nisa
import nisa.nki

nisa.nki.install()
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "kernels"))

import loops  # noqa: E402

ENDLESS = """.arch trn2
.hbm  y f32 [128, 8] output
.sbuf t f32 [128, 8]
.reg c
register_move dst=c, src=1
memset dst=t, value=0
while_loop cond=c
tensor_scalar dst=t, data=t, op0=add, operand0=1.0
end_loop
dma_copy dst=y, src=t
"""

# Ten iterations of one instruction: 10 x (1 + end_loop) = 20 steps; y = 10.
TEN = """.arch trn2
.hbm  y f32 [128, 8] output
.sbuf t f32 [128, 8]
.reg i
memset dst=t, value=0
fori_loop var=i, lower=0, upper=10
tensor_scalar dst=t, data=t, op0=add, operand0=1.0
end_loop
dma_copy dst=y, src=t
"""


def test_an_endless_while_loop_stops_at_max_steps():
    start = time.perf_counter()
    with pytest.raises(nisa.Error, match=r"endless\.nasm:7: error: while_loop: the run's loops have run more than "
                                         r"1000 instructions .*max_steps="):
        nisa.run(nisa.assemble(ENDLESS, file="endless.nasm"), max_steps=1000)
    assert time.perf_counter() - start < 2


def test_max_steps_is_exact():
    assert np.array_equal(nisa.run(TEN, max_steps=20)["y"], np.full((128, 8), 10, np.float32))
    with pytest.raises(nisa.Error, match="more than 19 instructions"):
        nisa.run(TEN, max_steps=19)


def test_the_default_limit_runs_ten_iterations():
    assert np.array_equal(nisa.run(TEN)["y"], np.full((128, 8), 10, np.float32))


@pytest.mark.parametrize("bad", [0, -1, True, 1.5, "10", 1 << 64])
def test_max_steps_must_be_a_positive_int(bad):
    with pytest.raises(nisa.Error, match=r"^max_steps: error: expected a positive int"):
        nisa.run(TEN, max_steps=bad)


def test_a_kernel_call_takes_max_steps():
    # countdown runs while its count is not 0: from -1 it counts away from 0.
    with pytest.raises(nisa.Error, match=r"loops\.py:\d+: error: while_loop: .*more than 500 instructions"):
        nisa.nki.run(loops.countdown, np.array([[-1]], np.int32), max_steps=500)
    out = nisa.nki.run(loops.countdown, np.array([[5]], np.int32), max_steps=500)
    assert out[0, 0] == 5


def test_jit_takes_max_steps():
    kernel = nisa.nki.jit(loops.countdown.fn, max_steps=300)
    with pytest.raises(nisa.Error, match="more than 300 instructions"):
        kernel(np.array([[-1]], np.int32))
    # A call's own max_steps wins over the kernel's.
    assert nisa.nki.run(kernel, np.array([[3]], np.int32), max_steps=10 ** 6)[0, 0] == 3


def test_a_profiled_loop_body_shows_its_runs():
    count = 4
    _, report = nisa.nki.run(loops.countdown, np.array([[count]], np.int32), profile=True)
    table = report["table"]
    head = next(line for line in table.splitlines() if line.lstrip().startswith("rank"))
    assert head.split()[:6] == ["rank", "source", "engine", "instruction", "runs", "cycles"]
    rows = [line.split() for line in table.splitlines() if re.match(r"\s*\d+\s+\S+loops\.py:\d+", line)]
    runs = {(r[1], r[3]): int(r[4]) for r in rows}
    body = [k for k in runs if k[1] == "tensor_scalar"]
    assert len(body) == 2 and all(runs[k] == count for k in body), table
    assert [runs[k] for k in runs if k[1] == "end_loop"] == [count], table
    assert [runs[k] for k in runs if k[1] == "while_loop"] == [1], table
