"""`dma_copy` (DMA), docs/SEMANTICS.md S4.7:
the reference model's semantics and its random instances."""
import numpy as np

from ref_common import dma_flat

RULE = "S4.7"


# ---- semantics ----

def dma_copy(m, o):
    """Bits copied exactly (S2.1); views flatten their free dimensions. A
    dynamic view (vector_offset / scalar_offset) moves by its runtime index
    times the elements of one step of indirect_dim; an index taking it outside
    the tensor faults (oob_mode error) or skips that partition (vector) or the
    whole copy (scalar), docs/SEMANTICS.md dma_copy."""
    dst, src = o["dst"], o["src"]
    if dst.indirect is None and src.indirect is None:
        m.write_raw(dst, m.read_raw(src))
        return
    parts = m.partitions(dst)
    d_idx, d_ok, d_index = dma_flat(m, dst, parts)
    s_idx, s_ok, s_index = dma_flat(m, src, parts)
    skip = o.get("oob_mode", "error") == "skip"
    for ok, index, view in ((d_ok, d_index, dst), (s_ok, s_index, src)):
        if not ok.all() and not skip:
            p = int(np.argmin(ok))
            raise IndexError(f"dma_copy: index {index[p if view.indirect == 'vector' else 0]} takes the view outside "
                             f"{view.name}")
    if src.indirect is None:
        m.check_written(src)
    src_raw = m._tensor_raw(m.decl(src)).reshape(-1)
    if dst.indirect is None:  # a gather into a tile: only the copied partitions count as written
        raw = m.read_raw(dst, check=False)
        written = np.zeros(raw.shape, dtype=bool)
        for p in range(parts):
            if d_ok[p] and s_ok[p]:
                raw[p] = src_raw[s_idx[p]]
                written[p] = True
        m.write_raw(dst, raw, written)
        return
    whole = m._tensor_raw(m.decl(dst)).copy().reshape(-1)  # a scatter into HBM
    for p in range(parts):  # partition order: a repeated row keeps the last
        if d_ok[p] and s_ok[p]:
            whole[d_idx[p]] = src_raw[s_idx[p]]
    m._store_tensor_raw(m.decl(dst), whole.reshape(m.decl(dst).shape))


# ---- lockstep allowances (lockstep.py) ----

KEEPS_NAN_PAYLOAD = True


# ---- random programs ----

EMITTED_BY = "gen_programs.block_dma, block_rept, block_alias; every tile's load and store (gen_builder.ProgramBuilder)"
