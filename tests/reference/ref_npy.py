""".npy files as nisa writes them, read with NumPy alone (LANGUAGE.md 3).

nisa writes a bf16 or fp8 tensor as its bits under the name ml_dtypes gives
the type ('bfloat16', 'float8_e4m3', 'float8_e4m3fn', 'float8_e5m2'), a
descr np.load understands only once ml_dtypes is imported. `load` reads such
a file's header itself and decodes the bits with the reference's own dtype
model (ref_dtypes.decode) into float32 values, exactly; any other file is
np.load's.

    load(path)      -> ndarray (float32 values for a bf16/fp8 file)
    read_raw(path)  -> (descr, shape, data bytes): the file as written
"""
import ast

import numpy as np

import ref_dtypes

MAGIC = b"\x93NUMPY"


def read_raw(path):
    """The header's descr and shape and the data bytes of a C-order .npy file."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:6] != MAGIC:
        raise ValueError(f"{path}: not a .npy file")
    size_bytes = 2 if data[6] == 1 else 4
    length = int.from_bytes(data[8:8 + size_bytes], "little")
    start = 8 + size_bytes
    header = ast.literal_eval(data[start:start + length].decode("latin1"))
    if header["fortran_order"]:
        raise ValueError(f"{path}: Fortran order (nisa writes C order)")
    return header["descr"], tuple(header["shape"]), data[start + length:]


def load(path):
    """The file's values: a bf16/fp8 file (an ml_dtypes name as its descr)
    as float32, any other as np.load gives it."""
    descr, shape, data = read_raw(path)
    name = ref_dtypes.ALIASES.get(descr) if isinstance(descr, str) else None
    if name is None or not ref_dtypes.is_float(name) or name in ("f32", "f16", "tf32"):
        return np.load(path)
    raw = np.frombuffer(data, dtype=ref_dtypes.raw_dtype(name)).reshape(shape)
    return ref_dtypes.decode(name, raw)
