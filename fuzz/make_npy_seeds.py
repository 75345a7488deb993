#!/usr/bin/python3
"""Seeds of the npy fuzz target: small arrays of every element type nisa
reads, 0-d and empty arrays, and the same header as format versions 2.0 and
3.0 (NumPy writes those only when needed, so they are built by hand)."""
import os
import struct
import sys

import numpy as np

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
arrays = {
    "f32": np.arange(12, dtype=np.float32).reshape(3, 4),
    "f16": np.array([1.5, -2, np.inf], dtype=np.float16),
    "f64": np.array([[np.nan, 1e300]], dtype=np.float64),
    "i8": np.array([-128, 127], dtype=np.int8),
    "u8": np.arange(5, dtype=np.uint8),
    "i16": np.array([[1], [2]], dtype=np.int16),
    "u16": np.array([65535], dtype=np.uint16),
    "i32": np.arange(6, dtype=np.int32).reshape(1, 2, 3),
    "u32": np.array([7], dtype=np.uint32),
    "i64": np.array([-1], dtype=np.int64),
    "u64": np.array([1], dtype=np.uint64),
    "bool": np.array([True, False]),
    "scalar": np.float32(3.0).reshape(()),
    "empty": np.zeros((0, 4), dtype=np.float32),
}
for name, a in arrays.items():
    np.save(os.path.join(out, name + ".npy"), a)
    # Versions 2.0 and 3.0: the same header with a 4-byte length.
    raw = open(os.path.join(out, name + ".npy"), "rb").read()
    header_len = struct.unpack("<H", raw[8:10])[0]
    header, data = raw[10:10 + header_len], raw[10 + header_len:]
    for major in (2, 3):
        with open(os.path.join(out, f"{name}.v{major}.npy"), "wb") as f:
            f.write(b"\x93NUMPY" + bytes([major, 0]) + struct.pack("<I", len(header)) + header + data)
