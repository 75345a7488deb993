"""Misuse inside a kernel raises nisa.Error naming the kernel's file and
line (LANGUAGE.md 4), at record time, at assembly or at run time (strict)."""
import os
import sys

import numpy as np
import pytest

import nisa
import nisa.nki

nisa.nki.install()
KERNELS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "kernels")
sys.path.insert(0, KERNELS)

import misuse  # noqa: E402

MISUSE_FILE = os.path.join(KERNELS, "misuse.py")


def marked_line(name):
    with open(MISUSE_FILE) as f:
        for number, text in enumerate(f, 1):
            if text.rstrip().endswith(f"# LINE {name}"):
                return number
    raise AssertionError(name)


def raised(kernel, *args, **kwargs):
    with pytest.raises(nisa.Error) as info:
        kernel(*args, **kwargs)
    e = info.value
    assert os.path.samefile(e.file, MISUSE_FILE), e.message
    assert e.line == marked_line(kernel.__name__), e.message
    return e


def x():
    return np.ones((128, 64), dtype=np.float32)


def test_strict_read_of_unwritten_tile_names_the_kernel_line():
    e = raised(misuse.reads_unwritten_tile, x())
    assert "never written" in e.message
    assert e.exit_status == 3


def test_the_same_kernel_runs_without_strict():
    out = nisa.nki.run(misuse.reads_unwritten_tile, x(), strict=False)
    assert out.shape == (128, 64)  # SBUF starts zeroed in the model: exp(0)
    np.testing.assert_array_equal(out, np.ones((128, 64), np.float32))


def test_wrong_key():
    e = raised(misuse.wrong_key, x())
    assert "no parameter 'operand'" in e.message and "operand0" in e.message


def test_out_of_bounds_slice():
    e = raised(misuse.slice_out_of_bounds, x())
    assert "out of bounds for dimension 1 of size 64" in e.message


def test_shape_mismatch_found_by_the_assembler_is_reported_at_the_kernel_line():
    e = raised(misuse.shape_mismatch, x())
    assert "recorded as: tensor_tensor" in e.message


def test_instruction_not_modeled():
    e = raised(misuse.not_modeled, x())
    assert "nl.mod is not modeled" in e.message


def test_sbuf_full_names_the_allocation():
    e = raised(misuse.too_many_live_tiles, np.ones((128, 1024), np.float32))
    assert "sbuf is full" in e.message


def test_calls_outside_a_kernel():
    import nki.language as nl
    with pytest.raises(nisa.Error, match="inside a function decorated with @nki.jit"):
        nl.ndarray((128, 4), dtype=nl.float32)
