"""nisa.run(strict=True) on a program whose cores race on shared HBM
(docs/SEMANTICS.md S16.5): the same fault as `nisa run --strict` (exit
status 3, the later instruction's line, both instructions named); without
strict, the run's fixed order (core 0 first). Programs: tests/races/."""
import os

import numpy as np
import pytest

import nisa

SOURCE = os.environ.get("NISA_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
RACES = os.path.join(SOURCE, "tests", "races")


def test_strict_run_names_both_sides_of_a_race():
    program = os.path.join(RACES, "read_write.nasm")
    with pytest.raises(nisa.Error) as info:
        nisa.run(program, strict=True)
    assert info.value.exit_status == 3 and info.value.line == 14
    assert info.value.message.endswith(
        ": error: core 1's dma_copy (line 14) reads element [0, 0] of 'out', which core 0's dma_copy (line 11) "
        "writes, and no sendrecv or core_barrier orders the two (S16.5)")
    # Not strict: core 1 reads what core 0 wrote before it (the fixed order).
    out = nisa.run(program)
    np.testing.assert_array_equal(out["got"], np.full((128, 8), 3.0, np.float32))


def test_strict_run_of_an_ordered_program():
    out = nisa.run(os.path.join(RACES, "barrier_orders.nasm"), strict=True)
    expected_out = np.full((128, 8), 3.0, np.float32)
    expected_out[64:] = 4.0
    np.testing.assert_array_equal(out["out"], expected_out)
    np.testing.assert_array_equal(out["got"], np.full((128, 8), 3.0, np.float32))
