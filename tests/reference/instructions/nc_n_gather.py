"""`nc_n_gather` (GpSimd), docs/SEMANTICS.md S11.4:
the reference model's semantics and its random instances."""
import numpy as np

from gen_common import any_dtype, Block

RULE = "S11.4"


# ---- semantics ----

def nc_n_gather(m, o):
    """S11.4: dst[p, j] = data[p, indices[p, j]] over flattened free elements; an
    index out of range gives zero bits (--strict faults)."""
    data = m.read_raw(o["data"])
    indices = m.read_raw(o["indices"]).astype(np.int64)
    if np.any(indices >= data.shape[1]):
        m.note_hazard("nc_n_gather index outside data's partition (S11.4)")
    padded = np.concatenate([data, np.zeros((data.shape[0], 1), dtype=data.dtype)], axis=1)
    m.write_raw(o["dst"], np.take_along_axis(padded, np.minimum(indices, data.shape[1]), axis=1))


# ---- lockstep allowances (lockstep.py) ----

KEEPS_NAN_PAYLOAD = True


# ---- random programs ----

def emit_nc_n_gather(b):
    """nki.isa.nc_n_gather(dst, data, indices): per partition, over flattened free elements."""
    s, c = b.lanes()
    dtype = any_dtype(b)
    data_free = b.free_shape(64)
    n = int(np.prod(data_free))
    free = b.free_shape(48)
    m = int(np.prod(free))
    data = b.tile(dtype, s, c, data_free, "sbuf")
    b.load(data, b.values(dtype, (c, n), -50, 50))
    index_values = b.rng.integers(0, n, size=(c, m))
    if b.chance(0.05):  # out of range: zero bits, and a --strict fault (S11.4)
        index_values[-1, -1] = n + int(b.rng.integers(0, 3))
    indices = b.tile("u32", s, c, free, "sbuf")
    b.load(indices, index_values)
    dst = b.tile(dtype, s, c, free, "sbuf")
    b.instr("nc_n_gather", dst=dst, data=data, indices=indices)
    b.store(dst)


BLOCKS = [Block(emit_nc_n_gather, 0.5, order=40, lockstep=1.5)]
