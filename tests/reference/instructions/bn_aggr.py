"""`bn_aggr` (Vector), docs/SEMANTICS.md S4.31:
the reference model's semantics and its random instances."""
import numpy as np

from gen_common import Block, compute_mem, float_dtype
from ref_common import F32

RULE = "S4.31"


# ---- semantics ----

def bn_aggr(m, o):
    """S4.31: Chan's pairwise combination of (count, mean, m2) triples, left to right in float32."""
    data = m.read(o["data"])
    out = np.zeros((data.shape[0], 2), dtype=F32)
    with np.errstate(all="ignore"):
        for p in range(data.shape[0]):
            n = mean = m2 = F32(0)
            for t in range(0, data.shape[1], 3):
                nb, mb, m2b = (F32(v) for v in data[p, t:t + 3])
                if nb == 0:
                    continue
                if n == 0:
                    n, mean, m2 = nb, mb, m2b
                    continue
                total = F32(n + nb)
                delta = F32(mb - mean)
                w = F32(nb / total)
                mean = F32(mean + F32(delta * w))
                m2 = F32(F32(m2 + m2b) + F32(F32(delta * delta) * F32(n * w)))
                n = total
            out[p] = (mean, F32(0) if n == 0 else F32(m2 / n))
    m.write(o["dst"], out)


# ---- random programs ----

def emit_bn_aggr(b):
    """Triples either from bn_stats instructions or loaded at random (counts 0 included)."""
    s, c = b.lanes()
    k = int(b.rng.integers(1, 6))
    if b.chance(0.5):
        stats = b.tile("f32", s, c, [3 * k], compute_mem(b))
        counts = b.rng.integers(0, 300, size=(c, k)) * (b.rng.random((c, k)) > 0.2)
        values = np.stack([counts.astype(np.float64), b.values("f32", (c, k), -4, 4), b.values("f32", (c, k), 0, 100)], axis=2)
        b.load(stats, values.reshape(c, 3 * k))
    else:  # NKI's pattern: several bn_stats into slices of one tile
        name = b.fresh("t")
        b.decls.append(f".sbuf {name} f32 [128, {6 * k}]")
        for j in range(k):
            n = int(b.rng.integers(1, 65))
            data = b.tile("f32", s, c, [n], "sbuf")
            b.load(data, b.values("f32", (c, n), -8, 8))
            b.instr("bn_stats", dst=f"{name}[{s}:{s + c}, {6 * j}:{6 * j + 6}]", data=data)
        stats = f"{name}[{s}:{s + c}]"
    dst = b.tile(float_dtype(b), s, c, [2], compute_mem(b))
    b.instr("bn_aggr", dst=dst, data=stats)
    b.store(dst)


BLOCKS = [Block(emit_bn_aggr, 0.5, order=31, lockstep=1.2)]
