"""`dma_compute` (DMA; NKI 0.6 `nisa.dma_compute`), docs/SEMANTICS.md S12.1:
the reference model's semantics and its random instances."""
import numpy as np

from gen_common import any_dtype, Block
from ref_common import dma_flat, F32
import ref_dtypes

RULE = "S12.1"


# ---- semantics ----

def dma_compute(m, o):
    """dst = srcs[0] + srcs[1] + ... in float32, left to right (every src
    decoded to float32, the sum encoded to dst's dtype); scales are all 1.
    Partitions in order, each read before it is written; a dynamic view's
    index is bounded as dma_copy's (oob_mode)."""
    dst, srcs = o["dst"], o["srcs"]
    parts = m.partitions(dst)
    sides = [dma_flat(m, v, parts) for v in [dst] + srcs]
    skip = o.get("oob_mode", "error") == "skip"
    for (idx, ok, index), view in zip(sides, [dst] + srcs):
        if not ok.all() and not skip:
            p = int(np.argmin(ok))
            raise IndexError(f"dma_compute: index {index[p if view.indirect == 'vector' else 0]} takes the view outside {view.name}")
    for v in srcs:
        if v.indirect is None:
            m.check_written(v)
    ddecl = m.decl(dst)
    for p in range(parts):
        if not all(ok[p] for _, ok, _ in sides):
            continue
        total = None
        for (idx, _, _), v in zip(sides[1:], srcs):
            raw = m._tensor_raw(m.decl(v)).reshape(-1)[idx[p]]
            term = ref_dtypes.decode(m.dtype(v), raw).astype(F32)
            total = term if total is None else (total + term).astype(F32)
        enc = ref_dtypes.encode(ddecl.dtype, total)
        if ddecl.memory == "hbm":
            whole = m._tensor_raw(ddecl).copy().reshape(-1)
            whole[sides[0][0][p]] = enc.reshape(-1)
            m._store_tensor_raw(ddecl, whole.reshape(ddecl.shape))
        else:
            raw = m.read_raw(dst, check=False)
            raw[p] = enc.reshape(-1)
            written = np.zeros(raw.shape, dtype=bool)
            written[p] = True
            m.write_raw(dst, raw, written)


# ---- random programs ----

def emit_dma_compute(b):
    """nki.isa.dma_compute(dst, srcs, reduce_op=add, scales): the float32 sum of 1 to 4 sources of
    any dtypes (SBUF tiles or HBM views of dst's shape), converted to dst's dtype (S12.1)."""
    s, c = b.lanes()
    free = b.free_shape(64)
    n = int(np.prod(free))
    dst = b.tile(any_dtype(b), b.shifted(s, c), c, free, "sbuf")
    srcs = []
    for _ in range(int(b.rng.integers(1, 5))):
        dtype = any_dtype(b)
        values = b.values(dtype, (c, n), -50, 50)
        if b.chance(0.4):
            srcs.append(b._hbm_source(dtype, values, dst))  # dst only gives the free shape
        else:
            t = b.tile(dtype, b.shifted(s, c), c, free, "sbuf")
            b.load(t, values)
            srcs.append(t.ref())
    scales = "[" + ", ".join(["1"] * len(srcs)) + "]" if b.chance(0.3) else None
    b.instr("dma_compute", dst=dst, srcs="[" + ", ".join(srcs) + "]", reduce_op="add", scales=scales)
    b.store(dst)


BLOCKS = [Block(emit_dma_compute, 0.6, order=47, lockstep=1.2)]
