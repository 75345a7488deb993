"""`dma_copy` (DMA), docs/SEMANTICS.md S4.7:
the reference model's semantics and its random instances."""
import numpy as np

import ref_dtypes
from gen_common import any_dtype, Block
from ref_common import dma_flat

RULE = "S4.7"


# ---- semantics ----

def dma_copy(m, o):
    """Bits copied exactly when dst and src share a dtype (S2.1), else each
    element converted to float32 and then to dst's dtype (S2.2, S2.3; NKI 0.6's
    dma_copy docstring); views flatten their free dimensions. A
    dynamic view (vector_offset / scalar_offset) moves by its runtime index
    times the elements of one step of indirect_dim; an index taking it outside
    the tensor faults (oob_mode error) or skips that partition (vector) or the
    whole copy (scalar), docs/SEMANTICS.md dma_copy."""
    dst, src = o["dst"], o["src"]
    same = m.dtype(dst) == m.dtype(src)
    if dst.indirect is None and src.indirect is None:
        if same:
            m.write_raw(dst, m.read_raw(src))
        else:
            m.write(dst, m.read(src))
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
    if not same:  # the whole source tensor in dst's dtype: the copies below then move bits
        src_raw = ref_dtypes.encode(m.dtype(dst), ref_dtypes.decode(m.dtype(src), src_raw))
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

KEEPS_NAN_PAYLOAD = "src"  # bits with one dtype; through float32 with two (the payload is open, S2.1)


# ---- random programs ----

EMITTED_BY = "gen_programs.block_dma, block_rept, block_alias; every tile's load and store (gen_builder.ProgramBuilder)"


def emit_dma_convert(b):
    """S4.7 between dtypes (NKI 0.6's dma_copy: through float32): an HBM input into
    a tile of another dtype at any partition start (DMA ignores S1.5), then the
    tile into an HBM output of a third."""
    src_dtype, tile_dtype, out_dtype = any_dtype(b), any_dtype(b), any_dtype(b)
    c = int(b.rng.integers(1, 129))
    s = int(b.rng.integers(0, 129 - c))
    t = b.tile(tile_dtype, s, c, b.free_shape(200))
    t.whole = t.whole and s == 0
    values = b.values(src_dtype, (c, t.elems), -1000, 1000, specials=True)
    b.instr("dma_copy", dst=t, src=b.hbm(src_dtype, [c, t.elems], "input", values))
    b.instr("dma_copy", dst=b.hbm(out_dtype, [c, t.elems], "output"), src=t)


BLOCKS = [Block(emit_dma_convert, 0.3)]
