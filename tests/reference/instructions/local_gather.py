"""`local_gather` (GpSimd), docs/SEMANTICS.md S11.3:
the reference model's semantics and its random instances."""
import numpy as np

from gen_common import any_dtype, Block

RULE = "S11.3"


# ---- semantics ----

def local_gather(m, o):
    """S11.3, NKI's golden formula: per GpSimd core (16 partitions), indices_1d =
    index[core].flatten(order='F')[:num_valid_indices]; each partition takes
    num_elem_per_idx contiguous elements of its own flattened row at every index.
    Elements past the end of the row read as zero bits (--strict faults)."""
    src = m.read_raw(o["src_buffer"])
    index = m.read_raw(o["index"]).astype(np.int64)
    n = o["num_elem_per_idx"]
    valid = o.get("num_valid_indices", index.size // (index.shape[0] // 16))
    out = np.zeros((src.shape[0], valid * n), dtype=src.dtype)
    padded = np.concatenate([src, np.zeros((src.shape[0], 32), dtype=src.dtype)], axis=1)
    for first in range(0, src.shape[0], 16):
        indices_1d = index[first:first + 16].flatten(order="F")[:valid]
        if np.any(indices_1d + n > src.shape[1]):
            m.note_hazard("local_gather index past the end of the partition (S11.3)")
        columns = (indices_1d[:, None] + np.arange(n)[None, :]).reshape(-1)
        columns = np.minimum(columns, src.shape[1])  # past the end: a zero column
        out[first:first + 16] = padded[first:first + 16][:, columns]
    m.write_raw(o["dst"], out)


# ---- lockstep allowances (lockstep.py) ----

KEEPS_NAN_PAYLOAD = True


# ---- random programs ----

def emit_local_gather(b):
    """nki.isa.local_gather(dst, src_buffer, index, num_elem_per_idx, num_valid_indices)."""
    s, c = b.pick([(0, 16), (32, 16), (64, 16), (96, 16), (0, 32), (96, 32), (0, 64), (64, 64), (0, 48),
                   (0, 128), (0, 96)])
    dtype = any_dtype(b)
    n = int(b.rng.integers(1, 65))
    width = b.pick([w for w in (1, 2, 4, 8, 16, 32) if w <= n])
    k = int(b.rng.integers(1, 4))
    valid = int(b.rng.integers(1, 16 * k + 1)) if b.chance(0.6) else None
    used = valid if valid is not None else 16 * k
    src = b.tile(dtype, s, c, [n], "sbuf")
    b.load(src, b.values(dtype, (c, n), -50, 50))
    index_values = b.rng.integers(0, n - width + 1, size=(c, k))
    if b.chance(0.05):  # past the end: zero bits, and a --strict fault (S11.3)
        index_values[0, 0] = n - width + 1
    index = b.tile("u16", s, c, [k], "sbuf")
    b.load(index, index_values)
    dst = b.tile(dtype, s, c, [used * width], "sbuf")
    b.instr("local_gather", dst=dst, src_buffer=src, index=index,
            num_elem_per_idx=width if (width > 1 or b.chance(0.3)) else None, num_valid_indices=valid)
    b.store(dst)


BLOCKS = [Block(emit_local_gather, 0.5, order=39, lockstep=1.2)]
