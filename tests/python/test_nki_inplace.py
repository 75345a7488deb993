"""In-place kernels (LANGUAGE.md 4): a kernel's writes to a parameter's HBM
tensor reach the caller's NumPy array, as they do on the device; an array
that cannot take them raises nisa.Error at the kernel's first store into it."""
import os

import numpy as np
import pytest

import nisa
import nisa.nki

nisa.nki.install()
import nki  # noqa: E402
import nki.language as nl  # noqa: E402
from marked_lines import assert_located  # noqa: E402

THIS_FILE = os.path.abspath(__file__)


def eighths(shape, seed, dtype=np.float32):
    """Values whose sums and doublings are exact in float32."""
    return (np.random.default_rng(seed).integers(-64, 64, size=shape) / 8).astype(dtype)


@nki.jit
def add_into(a, b):
    nl.store(a, value=nl.add(nl.load(a), nl.load(b)))  # LINE add_into


@nki.jit
def double_and_sum(a):
    t = nl.load(a)
    nl.store(a, value=nl.add(t, t))  # LINE double_and_sum
    total = nl.ndarray((a.shape[0], 1), dtype=a.dtype, buffer=nl.shared_hbm)
    nl.store(total, value=nl.sum(t, axis=1, keepdims=True))
    return total


@nki.jit
def double_and_return(a):
    t = nl.load(a)
    nl.store(a, value=nl.add(t, t))
    return a


@nki.jit
def first_half_plus_one(a):
    half = a.shape[0] // 2
    nl.store(a[0:half, :], value=nl.add(nl.load(a[0:half, :]), 1))


@nki.jit
def copy_of(a):
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    nl.store(out, value=nl.load(a))
    return out


@nki.jit
def returns_unwritten(a):
    return a


def test_in_place_kernel_updates_the_caller_s_array():
    a, b = eighths((128, 16), 1), eighths((128, 16), 2)
    expected, b_before = a + b, b.copy()
    assert add_into(a, b) is None
    np.testing.assert_array_equal(a, expected)
    assert b.tobytes() == b_before.tobytes()


def test_in_place_int32():
    a = np.arange(128 * 8, dtype=np.int32).reshape(128, 8)
    b = np.full((128, 8), -7, dtype=np.int32)
    expected = a + b
    add_into(a, b)
    assert a.dtype == np.int32
    np.testing.assert_array_equal(a, expected)


def test_kernel_writing_a_parameter_and_returning_a_new_output():
    a = eighths((128, 8), 3)
    expected_a, expected_total = a * 2, a.sum(axis=1, keepdims=True)
    total = double_and_sum(a)
    np.testing.assert_array_equal(a, expected_a)
    np.testing.assert_array_equal(total, expected_total)


def test_returning_a_written_parameter():
    a = eighths((128, 8), 4)
    expected = a * 2
    returned = double_and_return(a)
    np.testing.assert_array_equal(returned, expected)
    np.testing.assert_array_equal(a, expected)


def test_a_partial_store_keeps_the_rest_of_the_array():
    a = eighths((128, 8), 5)
    expected = a.copy()
    expected[:64] += 1
    first_half_plus_one(a)
    np.testing.assert_array_equal(a, expected)


def test_a_non_contiguous_view_is_written_through():
    base = eighths((128, 16), 6)
    expected = base.copy()
    expected[:, ::2] *= 2
    view = base[:, ::2]
    double_and_return(view)
    np.testing.assert_array_equal(base, expected)


def test_reading_kernels_leave_their_parameters_bit_identical():
    a = eighths((128, 8), 7)
    a[0, :4] = [np.nan, -0.0, np.inf, -np.inf]
    before = a.tobytes()
    copy_of(a)
    returns_unwritten(a)
    assert a.tobytes() == before
    frozen = a.copy()
    frozen.flags.writeable = False  # read-only is fine when the kernel only reads
    np.testing.assert_array_equal(copy_of(frozen), a)


def test_nisa_run_never_modifies_its_inputs():
    a, b = eighths((128, 8), 8), eighths((128, 8), 9)
    before = a.tobytes()
    text = nisa.nki.to_nasm(add_into, a, b)
    assert ".hbm a f32 [128, 8] inout" in text
    out = nisa.run(text, {"a": a, "b": b})
    np.testing.assert_array_equal(out["a"], a + b)
    assert a.tobytes() == before


def stored_into_raises(kernel, line_name, *args):
    with pytest.raises(nisa.Error) as info:
        kernel(*args)
    assert_located(info.value, THIS_FILE, line_name)
    return info.value.message


def test_read_only_array_raises_at_the_store():
    a, b = eighths((128, 16), 10), eighths((128, 16), 11)
    a.flags.writeable = False
    before = a.tobytes()
    assert "read-only" in stored_into_raises(add_into, "add_into", a, b)
    assert a.tobytes() == before


def test_a_broadcast_view_is_read_only():
    row = eighths((1, 16), 12)
    assert "read-only" in stored_into_raises(add_into, "add_into", np.broadcast_to(row, (128, 16)),
                                             eighths((128, 16), 13))


class ArrayLike:
    """An array-like that is not a NumPy array: a write cannot reach it."""

    def __init__(self, array):
        self._array = array
        self.dtype, self.shape = array.dtype, array.shape

    def __array__(self, dtype=None, copy=None):
        return self._array.copy()


def test_a_non_ndarray_argument_raises_at_the_store():
    message = stored_into_raises(double_and_sum, "double_and_sum", ArrayLike(eighths((128, 8), 14)))
    assert "not a NumPy array" in message


def test_a_bool_array_cannot_take_the_u8_tensor_back():
    a = np.zeros((128, 8), dtype=bool)
    message = stored_into_raises(add_into, "add_into", a, np.ones((128, 8), dtype=bool))
    assert "uint8" in message
    assert not a.any()


def test_parameters_sharing_memory_cannot_be_written():
    a = eighths((128, 8), 15)
    before = a.tobytes()
    assert "shares memory" in stored_into_raises(add_into, "add_into", a, a)
    assert a.tobytes() == before


@nki.jit
def stores_into_a_list(a, lst):
    nl.store(lst, value=nl.load(a))  # LINE stores_into_a_list


def test_storing_into_a_list_argument_raises_at_the_store():
    stored_into_raises(stores_into_a_list, "stores_into_a_list", eighths((128, 8), 16), [[0.0] * 8] * 128)


def test_big_endian_parameters_are_read_and_written_back_exactly():
    a = eighths((128, 64), 11).astype(">f4")
    b = eighths((128, 64), 12)
    expected = a.astype(np.float32) + b
    add_into(a, b)
    assert a.dtype == np.dtype(">f4")  # the caller's array keeps its byte order
    np.testing.assert_array_equal(a.astype(np.float32), expected)
