"""`nc_stream_shuffle` (Vector), docs/SEMANTICS.md S11.2:
the reference model's semantics and its random instances."""
import numpy as np

from gen_common import any_dtype, Block, compute_mem

RULE = "S11.2"


# ---- semantics ----

def nc_stream_shuffle(m, o):
    """S11.2: per quadrant of 32 partitions (relative to each tile), dst[32q + i] = src[32q + mask[i]];
    mask 255 leaves the dst partition unchanged. All of src is read before dst is written."""
    src = m.read_raw(o["src"])
    dst = o["dst"]
    out = m.read_raw(dst, check=False)
    written = np.zeros(out.shape, dtype=bool)
    for d in range(out.shape[0]):
        k = o["shuffle_mask"][d % 32]
        if k != 255:
            out[d] = src[d // 32 * 32 + k]
            written[d] = True
    m.write_raw(dst, out, written)


# ---- lockstep allowances (lockstep.py) ----

KEEPS_NAN_PAYLOAD = True


# ---- random programs ----

def emit_nc_stream_shuffle(b):
    """nki.isa.nc_stream_shuffle(dst, src, shuffle_mask): quadrants of 32 partitions, 255 keeps."""
    s, c = b.lanes()  # S1.5 starts are the docstring's quadrant starts too
    dtype = any_dtype(b)
    free = b.free_shape(48)
    n = int(np.prod(free))
    src_count = 1 if c <= 32 and b.chance(0.2) else c
    last = c - 32 * ((c - 1) // 32)  # partitions of dst's last quadrant
    mask = []
    for i in range(32):
        limit = min(32, src_count)
        if i < last and src_count == c:
            limit = min(limit, src_count - 32 * ((c - 1) // 32))
        mask.append(255 if b.chance(0.2) else int(b.rng.integers(0, limit)))
    if src_count == c and b.chance(0.3):  # in place
        dst = src = b.tile(dtype, s, c, free, compute_mem(b))
        b.load(src, b.values(dtype, (c, n), -50, 50))
    else:
        src = b.tile(dtype, b.pick([0, 32, 64, 96]) if src_count < c else s, src_count, free, compute_mem(b))
        b.load(src, b.values(dtype, (src_count, n), -50, 50))
        dst = b.tile(dtype, s, c, free, compute_mem(b))
        b.load(dst, b.values(dtype, (c, n), -50, 50))
    b.instr("nc_stream_shuffle", dst=dst, src=src, shuffle_mask=mask)
    b.store(dst)


BLOCKS = [Block(emit_nc_stream_shuffle, 0.6, order=38, lockstep=1.3)]
