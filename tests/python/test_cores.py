"""nisa.run and nisa.assemble of programs for several cores (LANGUAGE.md 2.7,
SEMANTICS S16): cores=, Program.cores, each tensor's core, and results
checked against NumPy formulas written here."""
import numpy as np
import pytest

import nisa

# Every core's lines (no .core sections): core k doubles rows [128k, 128k + 128).
EVERY_CORE = """
.hbm x f32 [256, 16] input
.hbm y f32 [256, 16] output
.sbuf t f32 [128, 16]
dma_copy dst=t, src=x[core * 128:core * 128 + 128]
tensor_scalar dst=t, data=t, op0=multiply, operand0=2.0
dma_copy dst=y[core * 128:core * 128 + 128], src=t
"""

# Each core sends its half of x to the other, which writes it to the other half of y.
SWAP = """
.cores 2
.hbm x f32 [256, 16] input
.hbm y f32 [256, 16] output
.core 0
.sbuf t f32 [128, 16]
.sbuf r f32 [128, 16]
dma_copy dst=t, src=x[0:128]
sendrecv src=t, dst=r, send_to_rank=1, recv_from_rank=1, pipe_id=0
dma_copy dst=y[0:128], src=r
.core 1
.sbuf t f32 [128, 16]
.sbuf r f32 [128, 16]
dma_copy dst=t, src=x[128:256]
sendrecv src=t, dst=r, send_to_rank=0, recv_from_rank=0, pipe_id=0
dma_copy dst=y[128:256], src=r
"""


def x_values():
    return np.random.default_rng(7).standard_normal((256, 16)).astype(np.float32)


def test_every_core_lines_with_cores_2():
    x = x_values()
    y = nisa.run(EVERY_CORE, {"x": x}, cores=2)["y"]
    assert np.array_equal(y, x * np.float32(2))


def test_without_a_core_count_core_is_unknown():
    with pytest.raises(nisa.Error, match=r"unknown name 'core' \(the core number of a program for several cores"):
        nisa.run(EVERY_CORE, {"x": x_values()})


def test_sendrecv_swaps_the_halves():
    x = x_values()
    for strict in (False, True):
        y = nisa.run(SWAP, {"x": x}, strict=strict)["y"]
        assert np.array_equal(y, np.concatenate([x[128:], x[:128]]))


def test_program_cores_and_tensor_cores():
    p = nisa.assemble(SWAP)
    assert p.cores == 2
    assert [(t["name"], t["core"]) for t in p.tensors] == [("x", None), ("y", None), ("t", 0), ("r", 0), ("t", 1), ("r", 1)]
    assert nisa.assemble(EVERY_CORE, cores=1).cores == 1


def test_a_cores_mismatch_is_an_error():
    with pytest.raises(nisa.Error, match="the program is for 2 cores but --cores asks for 1"):
        nisa.assemble(SWAP, cores=1)
    with pytest.raises(nisa.Error, match="the program is for 2 cores, not 1"):
        nisa.run(nisa.assemble(SWAP), {"x": x_values()}, cores=1)
    with pytest.raises(nisa.Error, match="cores: error: expected an int from 1 to 8"):
        nisa.assemble(SWAP, cores=0)


def test_a_sendrecv_without_its_peer_names_both_lines():
    lonely = SWAP.replace("sendrecv src=t, dst=r, send_to_rank=0, recv_from_rank=0, pipe_id=0\n", "")
    with pytest.raises(nisa.Error, match=r"<string>:9:1: error: sendrecv of core 0 \(line 9\) is never met: "
                                         r"core 1's instructions end at line 15 without it"):
        nisa.assemble(lonely)
