"""`tensor_copy` (Vector; or Scalar, GpSimd by `engine=`), docs/SEMANTICS.md S8.1:
the reference model's semantics and its random instances."""
import numpy as np

import ref_dtypes
from gen_common import any_dtype, Block, compute_mem
from gen_indirect import index_tile, indirect_base
from ref_common import resolve_tensor_indirect, tensor_indirect_start

RULE = "S8.1"


# ---- semantics ----

def tensor_copy(m, o):
    """S8.1: bits copied when dst and src share a dtype, else through float32 (S2).
    An .indirect() dst or src (S1.7) names the columns its index gives; --strict
    checks the first element of each partition of a gathered src (S1.7)."""
    dst, src = o["dst"], o["src"]
    if "tensor" in (dst.indirect, src.indirect):
        if src.indirect == "tensor":
            m.check_written(tensor_indirect_start(src))
        raw = m.read_raw(resolve_tensor_indirect(m, src, "tensor_copy"), check=src.indirect != "tensor")
        if m.dtype(dst) != m.dtype(src):
            raw = ref_dtypes.encode(m.dtype(dst), ref_dtypes.decode(m.dtype(src), raw))
        m.write_raw(resolve_tensor_indirect(m, dst, "tensor_copy"), raw)
        return
    if m.dtype(dst) == m.dtype(src):
        m.write_raw(dst, m.read_raw(src))
    else:
        m.write(dst, m.read(src))


# ---- lockstep allowances (lockstep.py) ----

KEEPS_NAN_PAYLOAD = "src"


# ---- random programs ----

def emit_tensor_copy(b):
    """S8.1: same dtype (bits) or another one (through float32), on an engine engine= names."""
    s, c = b.lanes()
    free = b.free_shape()
    n = int(np.prod(free))
    engines = [None, "unknown", "vector", "gpsimd"] + (["scalar"] if b.arch in ("trn2", "trn3") else [])
    engine = b.pick(engines)
    mem = (lambda: "sbuf") if engine == "gpsimd" else (lambda: compute_mem(b))
    sdt = any_dtype(b)
    src = b.tile(sdt, b.shifted(s, c), c, free if b.chance(0.8) else [n], mem())
    b.load(src, b.values(sdt, (c, n), -6, 6, specials=b.chance(0.3)))
    ddt = sdt if b.chance(0.4) else any_dtype(b)
    dst = b.tile(ddt, s, c, free, mem())
    b.instr("tensor_copy", dst=dst, src=src, engine=engine)
    b.store(dst)


def emit_tensor_copy_indirect(b):
    """S1.7 (trn3): a gather (src), a scatter (dst) or both (src in PSUM, one
    index start), on the Vector or Scalar engine, with the base-partition rules
    met: every index on a multiple of 32, an indirect src on its index's
    partition, an indirect dst's index on src's (SBUF) or src's index's."""
    if b.arch != "trn3":
        return emit_tensor_copy(b)
    parts = b.pick([16, 32, 32, 64, 128])
    starts = [s for s in ((0,) if parts > 64 else (0, 64) if parts > 32 else (0, 32, 64, 96)) if s + parts <= 128]
    start = b.pick(starts)
    engine = b.pick([None, "unknown", "vector", "scalar"])
    mode = b.pick(["gather", "scatter", "both"])
    sdt = any_dtype(b)
    ddt = sdt if b.chance(0.5) else any_dtype(b)
    ap = "{name}.ap(pattern=[[{e}, {p}], [{s}, {n}]], offset={k}, indirect={idx})"
    if mode == "gather":
        base, (e, s, k), (low, high) = indirect_base(b, sdt, start, parts, compute_mem(b))
        n = int(b.rng.integers(1, min(64, 16 * parts) + 1))
        idx = index_tile(b, start, parts, n, low, high, False)
        dst = b.tile(ddt, b.shifted(start, parts), parts, [n], compute_mem(b))
        b.instr("tensor_copy", dst=dst, src=ap.format(name=base.name, e=e, p=parts, s=s, n=n, k=k, idx=idx.ref()), engine=engine)
        b.store(dst)
        return
    dst_mem = "sbuf" if engine == "scalar" else compute_mem(b)
    base, (e, s, k), (low, high) = indirect_base(b, ddt, b.shifted(start, parts), parts, dst_mem)
    n = int(b.rng.integers(1, min(high - low + 1, 64) + 1))
    idx = index_tile(b, start, parts, n, low, high, True)
    if mode == "scatter":
        src_mem = b.pick(["sbuf", "psum"])
        src = b.tile(sdt, start if src_mem == "sbuf" else b.shifted(start, parts), parts, [n], src_mem)
        b.load(src, b.values(sdt, (parts, n), -6, 6, specials=b.chance(0.3)))
        src_text = src
    else:  # both: src in PSUM, gathered with the same index (its start = the index's)
        sbase, (se, ss, sk), (slow, shigh) = indirect_base(b, sdt, start, parts, "psum")
        if sbase.mem != "psum" or slow > low or shigh < high:  # no PSUM room, or other bounds: a plain SBUF src
            src = b.tile(sdt, start, parts, [n])
            b.load(src, b.values(sdt, (parts, n), -6, 6))
            src_text = src
        else:
            src_text = ap.format(name=sbase.name, e=se, p=parts, s=ss, n=n, k=sk, idx=idx.ref())
    b.instr("tensor_copy", dst=ap.format(name=base.name, e=e, p=parts, s=s, n=n, k=k, idx=idx.ref()), src=src_text, engine=engine)
    b.store(base)


BLOCKS = [Block(emit_tensor_copy, 1.0, order=18, lockstep=1.5),
          Block(emit_tensor_copy_indirect, 0.3, needs=lambda b: b.arch == "trn3", lockstep=0.5)]
