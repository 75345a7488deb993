"""Bad input to nisa.nki raises nisa.Error (LANGUAGE.md 4), never Python's
TypeError/ValueError/AttributeError: inside a kernel at the kernel's line,
outside one naming nisa.nki. A kernel's own exception is left alone."""
import os

import numpy as np
import pytest

import nisa
import nisa.nki

nisa.nki.install()
import nki  # noqa: E402
import nki.isa as ni  # noqa: E402
import nki.language as nl  # noqa: E402
from marked_lines import assert_located  # noqa: E402

THIS_FILE = os.path.abspath(__file__)


def x():
    return np.ones((128, 8), np.float32)


# Each kernel misuses one call on the line marked with its name.
@nki.jit
def string_in_shape(a):
    nl.ndarray(("a", 4), dtype=nl.float32)  # LINE string_in_shape


@nki.jit
def shape_of_none(a):
    nl.ndarray(None, dtype=nl.float32)  # LINE shape_of_none


@nki.jit
def float64_dtype(a):
    nl.ndarray((128, 4), dtype=np.float64)  # LINE float64_dtype


@nki.jit
def dtype_of_a_number(a):
    nl.zeros((128, 4), dtype=5)  # LINE dtype_of_a_number


@nki.jit
def unknown_buffer(a):
    nl.ndarray((128, 4), dtype=nl.float32, buffer="dram")  # LINE unknown_buffer


@nki.jit
def bad_keyword_to_load(a):
    nl.load(a, bogus=1)  # LINE bad_keyword_to_load


@nki.jit
def bad_keyword_to_exp(a):
    nl.exp(nl.load(a), foo=1)  # LINE bad_keyword_to_exp


@nki.jit
def load_of_a_string(a):
    nl.load("a")  # LINE load_of_a_string


@nki.jit
def store_of_a_string(a):
    nl.store(a, value="zero")  # LINE store_of_a_string


@nki.jit
def sum_on_a_string_axis(a):
    nl.sum(nl.load(a), axis="a")  # LINE sum_on_a_string_axis


@nki.jit
def reshape_to_a_string(a):
    nl.load(a).reshape("ab")  # LINE reshape_to_a_string


@nki.jit
def missing_attribute(a):
    return nl.load(a).astype(nl.float16)  # LINE missing_attribute


@nki.jit
def float_index(a):
    nl.load(a[1.5, :])  # LINE float_index


@nki.jit
def string_range(a):
    for i in nl.affine_range("4"):  # LINE string_range
        pass


@nki.jit
def ds_of_strings(a):
    nl.load(a[nl.ds("0", 4), :])  # LINE ds_of_strings


@nki.jit
def missing_required_argument(a):
    ni.memset(dst=nl.ndarray((128, 4), dtype=nl.float32))  # LINE missing_required_argument


@nki.jit
def op_of_a_number(a):
    t = nl.load(a)
    ni.activation(dst=t, op=123, data=t)  # LINE op_of_a_number


@nki.jit
def two_positional_too_many(a):
    t = nl.load(a)
    ni.memset(t, 0.0, "vector", "extra")  # LINE two_positional_too_many


@nki.jit
def add_a_string(a):
    nl.add(nl.load(a), "1")  # LINE add_a_string


@nki.jit
def operator_with_a_list(a):
    nl.load(a) * [1, 2]  # LINE operator_with_a_list


@nki.jit
def permute_of_a_string(a):
    nl.load(a).permute("ab")  # LINE permute_of_a_string


@nki.jit
def broadcast_to_a_number(a):
    nl.load(a[:, 0:1]).broadcast_to(8)  # LINE broadcast_to_a_number


@nki.jit
def negative_ds_size(a):
    nl.load(a[nl.ds(0, -4), :])  # LINE negative_ds_size


@nki.jit
def compares_a_tile(a):
    return nl.load(a) < 0  # LINE compares_a_tile


@nki.jit
def matmul_operator(a):
    t = nl.load(a)
    return t @ t  # LINE matmul_operator


@nki.jit
def tile_as_a_number(a):
    return float(nl.load(a))  # LINE tile_as_a_number


@nki.jit
def iterates_a_tile(a):
    for row in nl.load(a):  # LINE iterates_a_tile
        pass


@nki.jit
def select_of_a_missing_dimension(a):
    nl.load(a).select(5, 0)  # LINE select_of_a_missing_dimension


INSIDE = [string_in_shape, shape_of_none, float64_dtype, dtype_of_a_number, unknown_buffer, bad_keyword_to_load,
          bad_keyword_to_exp, load_of_a_string, store_of_a_string, sum_on_a_string_axis, reshape_to_a_string,
          missing_attribute, float_index, string_range, ds_of_strings, missing_required_argument, op_of_a_number,
          two_positional_too_many, add_a_string, operator_with_a_list, permute_of_a_string, broadcast_to_a_number,
          negative_ds_size, compares_a_tile, matmul_operator, tile_as_a_number, iterates_a_tile,
          select_of_a_missing_dimension]


@pytest.mark.parametrize("kernel", INSIDE, ids=lambda k: k.__name__)
def test_misuse_inside_a_kernel_raises_nisa_error_at_its_line(kernel):
    with pytest.raises(nisa.Error) as info:
        kernel(x())
    assert_located(info.value, THIS_FILE, kernel.__name__)
    assert info.value.exit_status == 2


@nki.jit
def probes_attributes(a):
    t = nl.load(a)
    assert not hasattr(t, "astype")  # a missing attribute is still an AttributeError to hasattr
    assert getattr(t, "astype", None) is None
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    nl.store(out, value=t)
    return out


def test_hasattr_on_a_tile_still_answers():
    np.testing.assert_array_equal(probes_attributes(x()), x())


OUTSIDE = {
    "nl.ndarray": lambda: nl.ndarray((128, 4), dtype=nl.float32),
    "nl.add": lambda: nl.add(1, 2),
    "nl.exp with a bad keyword": lambda: nl.exp(1, foo=2),
    "nl.affine_range of a string": lambda: nl.affine_range("4"),
    "nisa.get_nc_version": lambda: ni.get_nc_version(),
    "nisa.memset": lambda: ni.memset(value=0.0),
    "jit of a number": lambda: nki.jit(5),
    "grid of three cores on trn2": lambda: probes_attributes[3],
    "grid of two dimensions": lambda: probes_attributes[2, 2],
    "grid of zero": lambda: probes_attributes[0],
    "grid of True": lambda: probes_attributes[True],
    "legacy nc times two": lambda: nl.nc(2) * 2,
    "grid of an array": lambda: probes_attributes[np.array([1, 1])],
    "unknown target": lambda: nki.jit(platform_target="trn9")(probes_attributes.fn)(x()),
    "list target": lambda: nki.jit(platform_target=["trn2"])(probes_attributes.fn)(x()),
    "too many arguments": lambda: probes_attributes(x(), x()),
    "unknown keyword argument": lambda: probes_attributes(x(), b=1),
    "float64 parameter": lambda: probes_attributes(np.ones((128, 8))),
    "object parameter": lambda: probes_attributes(np.array([[object()]])),
    "0-d parameter": lambda: probes_attributes(np.array(1.0, np.float32)),
}


@pytest.mark.parametrize("call", OUTSIDE.values(), ids=OUTSIDE.keys())
def test_misuse_outside_a_kernel_raises_nisa_error(call):
    with pytest.raises(nisa.Error) as info:
        call()
    assert info.value.exit_status == 2


class OwnError(ValueError):
    pass


@nki.jit
def raises_own(a):
    raise OwnError("mine")


def test_a_kernel_s_own_exception_is_not_converted():
    with pytest.raises(OwnError) as info:
        raises_own(x())
    assert type(info.value) is OwnError and str(info.value) == "mine"


@nki.jit
def numpy_scalar_constant(a, factor):
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    nl.store(out, value=nl.multiply(nl.load(a), factor))
    return out


def test_a_numpy_scalar_argument_is_a_constant():
    np.testing.assert_array_equal(numpy_scalar_constant(x(), np.float32(3)), x() * 3)
