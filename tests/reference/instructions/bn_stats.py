"""`bn_stats` (Vector), docs/SEMANTICS.md S4.30:
the reference model's semantics and its random instances."""
import numpy as np

from gen_common import any_dtype, Block, compute_mem, float_dtype
from ref_common import F32

RULE = "S4.30"


# ---- semantics ----

def _fold_add(columns):
    """Left-to-right float32 sum of the columns of [P, k] (k >= 1), starting from column 0."""
    acc = columns[:, 0].astype(F32)
    for i in range(1, columns.shape[1]):
        acc = (acc + columns[:, i]).astype(F32)
    return acc


def _half_statistics(x):
    """(count, mean, variance * count) of [P, k] in float32, two passes (S4.30); k = 0 gives zeros."""
    p, k = x.shape
    if k == 0:
        return [np.zeros(p, dtype=F32)] * 3
    count = F32(k)
    with np.errstate(all="ignore"):
        mean = (_fold_add(x) / count).astype(F32)
        d = (x - mean[:, None]).astype(F32)
        m2 = _fold_add((d * d).astype(F32))
    return [np.full(p, count, dtype=F32), mean, m2]


def bn_stats(m, o):
    """S4.30: statistics of the even-indexed, then the odd-indexed free elements."""
    x = m.read(o["data"])
    m.write(o["dst"], np.stack(_half_statistics(x[:, 0::2]) + _half_statistics(x[:, 1::2]), axis=1))


# ---- random programs ----

def emit_bn_stats(b):
    s, c = b.lanes()
    free = b.free_shape(200)
    n = int(np.prod(free))
    ddt = any_dtype(b)
    data = b.tile(ddt, s, c, free, compute_mem(b))
    b.load(data, b.values(ddt, (c, n), -8, 8, specials=b.chance(0.2)))
    dst = b.tile(float_dtype(b), s, c, [6], compute_mem(b))
    b.instr("bn_stats", dst=dst, data=data)
    b.store(dst)


BLOCKS = [Block(emit_bn_stats, 0.5, order=30, lockstep=0.2)]
