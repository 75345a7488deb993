"""`dma_copy` (DMA), docs/SEMANTICS.md S4.7:
the reference model's semantics and its random instances."""
import numpy as np

import ref_dtypes
from gen_common import Block, any_dtype
from ref_common import dma_flat

RULE = "S4.7"


# ---- semantics ----

def dma_copy(m, o):
    """Bits copied exactly when dst and src share a dtype (S2.1), else each
    element converted to float32 and then to dst's dtype (S2.2, S2.3; NKI 0.6's
    dma_copy docstring); views flatten their free dimensions. A
    dynamic view (vector_offset / scalar_offset) moves by its runtime index
    times index_stride, or without it the elements of one step of
    indirect_dim; an index taking it outside the tensor faults (oob_mode
    error) or skips that partition (vector) or the whole copy (scalar),
    docs/SEMANTICS.md dma_copy."""
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



INDEX_RANGES = {"i8": (-128, 127), "u8": (0, 255), "i16": (-32768, 32767), "u16": (0, 65535),
                "i32": (-2 ** 31, 2 ** 31 - 1), "u32": (0, 2 ** 32 - 1)}


def _index_view(b, values, dtype):
    """An SBUF index column holding `values` ([P] ints): one column of a wider
    integer tile at any partition, written as a slice or as an .ap(...) view
    (LANGUAGE.md 2.3)."""
    p, k = len(values), int(b.rng.integers(1, 4))
    j = int(b.rng.integers(0, k))
    t = b.tile(dtype, int(b.rng.integers(0, 129 - p)), p, [k])
    t.pattern_form = t.reversed = False  # column j where the text below says
    columns = b.values(dtype, (p, k))
    columns[:, j] = values
    b.instr("dma_copy", dst=t, src=b.hbm(dtype, [p, k], "input", columns))  # exactly these values
    per_partition, column = int(np.prod(t.decl_free)), t.col_offset + j
    if b.chance(0.5):
        return f"{t.name}.ap(pattern=[[{per_partition}, {p}], [1, 1]], offset={t.pstart * per_partition + column})"
    return f"{t.name}[{t.pstart}:{t.pstart + p}, {column}]"


def emit_dma_copy_dynamic(b):
    """A gather (src) or scatter (dst) through a dynamic HBM view (NKI 0.6
    nki-aps "Dynamic Access"): vector_offset (a row per partition) or
    scalar_offset (one start), with index_stride as nisa.nki records a view of
    a reshaped tensor (x.reshape((B*S, D)): D, x.reshape((B*S*D,)): 1, any
    stride) or without it (the declared tensor's stride of indirect_dim);
    indices of several integer dtypes, in bounds, or with oob_mode=skip now and
    then outside."""
    dtype = any_dtype(b, 0.6)
    shape = [int(b.rng.integers(1, 4)), int(b.rng.integers(1, 7)), int(b.rng.integers(1, 13))]
    total = int(np.prod(shape))
    vector = b.chance(0.6)
    dim = 0 if vector else int(b.rng.integers(0, 3))
    stride = None
    if b.chance(0.75):
        stride = b.pick([1, shape[2], shape[1] * shape[2], int(b.rng.integers(1, total + 1))])
    unit = stride or int(np.prod(shape[dim + 1:]))
    w = int(b.rng.integers(1, min(shape[2], 16) + 1))
    if vector:
        p = int(b.rng.integers(1, 65))
        step0 = b.pick([unit, shape[2]])  # ignored (nki-aps); NKI's examples give the stride
        span = w
    else:
        step0 = b.pick([w, shape[2]])  # rows that do not overlap: a scatter writes each element once
        p = int(b.rng.integers(1, min(128, (total - w) // step0 + 1) + 1))
        span = (p - 1) * step0 + w
    offset = int(b.rng.integers(0, total - span + 1))
    low, high = -(offset // unit), (total - offset - span) // unit  # the indices that stay inside
    skip = b.chance(0.3)
    wanted = [low, high] + ([low - 2, high + 3] if skip else [])
    dtype_i = b.pick([d for d, (a, z) in INDEX_RANGES.items() if a <= max(min(wanted), -100) and max(wanted) <= z] +
                     [d for d, (a, z) in INDEX_RANGES.items() if a <= 0 <= high <= z and not skip])
    lo_i, hi_i = INDEX_RANGES[dtype_i]
    values = b.rng.integers(max(low, lo_i), high + 1, size=p if vector else 1)
    if skip:  # a few indices just outside, in the dtype's range
        outside = [v for v in (low - 1, low - 2, high + 1, high + 3) if lo_i <= v <= hi_i]
        for k in range(len(values)):
            if outside and b.chance(0.3):
                values[k] = b.pick(outside)
    index = _index_view(b, values, dtype_i)
    extra = f", index_stride={stride}" if stride is not None else ""
    kind = "vector_offset" if vector else "scalar_offset"
    scatter = b.chance(0.5)
    x = b.hbm(dtype, shape, "inout" if scatter else "input", b.values(dtype, shape, -1000, 1000, specials=True))
    dynamic = f"{x}.ap(pattern=[[{step0}, {p}], [1, {w}]], offset={offset}, {kind}={index}, indirect_dim={dim}{extra})"
    oob = "skip" if skip else (None if b.chance(0.5) else "error")
    if not scatter and b.chance(0.2):  # PSUM loads and stores go through compute: an S1.5 start
        tile = b.tile(dtype, b.shifted(0, p, 1.0), p, [w], "psum")
    else:  # DMA alone: any start
        tile = b.tile(dtype, int(b.rng.integers(0, 129 - p)), p, [w])
    b.load(tile, b.values(dtype, (p, w), -1000, 1000, specials=True))  # defined where a skip leaves it
    if scatter:
        b.instr("dma_copy", dst=dynamic, src=tile, oob_mode=oob)
    else:
        b.instr("dma_copy", dst=tile, src=dynamic, oob_mode=oob)
        b.store(tile)
    b.features.add("dma_dynamic")


BLOCKS = [Block(emit_dma_convert, 0.3), Block(emit_dma_copy_dynamic, 0.4, lockstep=0.6)]
