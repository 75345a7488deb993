"""NKI 0.6 dtypes as nisa knows them (LANGUAGE.md 2.2).

A dtype in nisa.nki is NKI's spelling as a string (`nl.float32 == "float32"`),
as NKI 0.6 declares `DType = str`. Kernels also pass NumPy dtypes and types
(`np.float32`, `a.dtype`); `canonical` turns any of them into NKI's spelling
and `nasm_name` into the .nasm one.
"""
import numpy as np

from .. import _ml_dtypes
from . import _spec

# NKI spelling -> NumPy dtype at the kernel boundary. bf16 and fp8 are
# ml_dtypes' types, which carry NKI's spellings as their names (None here:
# returned_numpy finds them, or float32 without ml_dtypes); tf32, which
# ml_dtypes lacks, crosses as float32 (LANGUAGE.md 4); MX (docs/SEMANTICS.md
# S13) as bits, as in .npy files. Each spelling is an alias of an isa-spec dtype (bool_: u8).
_BOUNDARY = {
    "float32": np.float32, "bfloat16": None, "float16": np.float16, "tfloat32": np.float32,
    "float8_e4m3": None, "float8_e4m3fn": None, "float8_e5m2": None,
    "int8": np.int8, "int16": np.int16, "int32": np.int32,
    "uint8": np.uint8, "uint16": np.uint16, "uint32": np.uint32, "bool_": np.bool_,
    "float8_e4m3fn_x4": np.uint32, "float8_e5m2_x4": np.uint32, "float4_e2m1fn_x4": np.uint16,
    "float8_e8m0fnu": np.uint8,
}
# NKI spelling -> (.nasm name, bytes per element, NumPy dtype at the kernel
# boundary); the .nasm name and size are the spec's (_spec.DTYPES).
TABLE = {name: _spec.DTYPES["bool" if name == "bool_" else name][:2] + (numpy,) for name, numpy in _BOUNDARY.items()}
_FLOAT = frozenset(name for name in TABLE if _spec.DTYPES["bool" if name == "bool_" else name][2] == "float")

_ALIASES = {"bool": "bool_", "fp32": "float32", "fp16": "float16", "bf16": "bfloat16", "f32": "float32", "f16": "float16",
            "i8": "int8", "i16": "int16", "i32": "int32", "u8": "uint8", "u16": "uint16", "u32": "uint32",
            "tf32": "tfloat32", "fp8e4m3": "float8_e4m3", "fp8e4m3fn": "float8_e4m3fn", "fp8e5m2": "float8_e5m2"}


def canonical(dtype):
    """NKI's spelling of `dtype` (a string, NumPy dtype or type), or None if nisa has no such dtype."""
    if isinstance(dtype, str):
        name = _ALIASES.get(dtype, dtype)
        return name if name in TABLE else None
    try:
        np_dtype = np.dtype(dtype)
    except TypeError:
        return None
    if np_dtype == np.bool_:
        return "bool_"
    name = np_dtype.name
    if name in TABLE and np_dtype.type.__module__ == "ml_dtypes" and np_dtype.itemsize == size(name):
        return name  # bfloat16, float8_e4m3, float8_e4m3fn, float8_e5m2, float8_e8m0fnu (bits, as uint8)
    return name if name in TABLE and TABLE[name][2] == np_dtype.type else None


def nasm_name(dtype):
    return TABLE[dtype][0]


def size(dtype):
    return TABLE[dtype][1]


def is_float(dtype):
    return dtype in _FLOAT


def returned_numpy(dtype):
    """The NumPy dtype of the array a run returns for a `dtype` tensor: the
    boundary one; a bool_ tensor is u8 in the program (LANGUAGE.md 2.2) and
    comes back as uint8; bf16 and fp8 as ml_dtypes' types, or as float32
    without ml_dtypes."""
    if dtype == "bool_":
        return np.dtype(np.uint8)
    if TABLE[dtype][2] is None:
        ml_type = _ml_dtypes.numpy_dtype(nasm_name(dtype))
        return np.dtype(ml_type if ml_type is not None else np.float32)
    return np.dtype(TABLE[dtype][2])
