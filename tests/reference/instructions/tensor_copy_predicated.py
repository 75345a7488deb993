"""`tensor_copy_predicated` (Vector), docs/SEMANTICS.md S4.2:
the reference model's semantics and its random instances."""
import numpy as np

from gen_common import any_dtype, Block, compute_mem, INTS, predicate_values
from gen_indirect import emit_indirect_streamed
from ref_common import F32, resolve_indirect_operands
import ref_dtypes

RULE = "S4.2"


# ---- semantics ----

def tensor_copy_predicated(m, o):
    """S4.2: dst = src where predicate (== 0 with reverse_pred); bits copied. An
    .indirect() dst or predicate (S1.7) names the columns its index gives; a
    scattered dst's every column counts as written (S1.7: its unselected columns
    are rewritten with their own bits)."""
    scattered = getattr(o["dst"], "indirect", None) == "tensor"
    o = resolve_indirect_operands(m, o, "tensor_copy_predicated", ("dst", "predicate"))
    dst, src, pred = o["dst"], o["src"], o["predicate"]
    predicate = m.read_raw(pred) != 0
    if o["reverse_pred"]:
        predicate = ~predicate
    out = m.read_raw(dst, check=False)
    if hasattr(src, "dims"):
        source = m.read_raw(src, check=False)
        unwritten = m.unwritten(src)
        if np.any(unwritten & predicate):
            m.note_hazard("copies src bytes never written (S1.1)")
        elif np.any(unwritten):
            m.note_ambiguous("src bytes never written under a false predicate: read or not?")
    elif ref_dtypes.is_float(m.dtype(dst)):
        source = ref_dtypes.encode(m.dtype(dst), np.full(out.shape, F32(src)))
    else:
        source = ref_dtypes.encode_int(m.dtype(dst), np.full(out.shape, int(src)))
    m.write_raw(dst, np.where(predicate, source, out), written=predicate | scattered)


# ---- lockstep allowances (lockstep.py) ----

KEEPS_NAN_PAYLOAD = "src"


# ---- random programs ----

def emit_tensor_copy_predicated(b):
    s, c = b.lanes()
    dtype = any_dtype(b, 0.6)
    free = b.free_shape()
    n = int(np.prod(free))
    pmem = compute_mem(b)
    dst = b.tile(dtype, s, c, free, compute_mem(b))
    b.load(dst, b.values(dtype, (c, n), specials=True))
    pdt = b.pick(["u8", "u16", "u32"])
    pred = b.tile(pdt, b.shifted(s, c), c, free if b.chance(0.7) else [n], pmem)
    b.load(pred, predicate_values(b, pdt, (c, n)))
    if b.chance(0.3):
        src = int(b.values(dtype, (1,))[0]) if dtype in INTS else float(b.values(dtype, (1,), -50, 50)[0])
    else:
        src = b.tile(dtype, b.shifted(s, c), c, [n] if b.chance(0.3) else free,
                     "sbuf" if pmem == "psum" else compute_mem(b))
        b.load(src, b.values(dtype, (c, n), specials=True))
    rev = b.chance(0.4)
    b.instr("tensor_copy_predicated", dst=dst, src=src, predicate=pred,
            reverse_pred=rev if (rev or b.chance(0.3)) else None)
    b.store(dst)


def emit_tensor_copy_predicated_indirect(b):
    """S1.7 (trn3): dst and/or predicate indirect; src a plain SBUF tile of dst's dtype or a scalar."""
    dtype = any_dtype(b, 0.6)

    def operands(b, start, parts, n):
        if b.chance(0.3):
            src = int(b.values(dtype, (1,))[0]) if dtype in INTS else float(b.values(dtype, (1,), -50, 50)[0])
        else:
            src = b.tile(dtype, start, parts, [n], "sbuf")
            b.load(src, b.values(dtype, (parts, n), specials=True))
        rev = b.chance(0.4)
        return {"src": src, "reverse_pred": rev if (rev or b.chance(0.3)) else None}
    emit_indirect_streamed(b, "tensor_copy_predicated", "predicate", operands, dtype=lambda b: dtype,
                           input_dtype=lambda b: b.pick(["u8", "u16", "u32"]))


BLOCKS = [Block(emit_tensor_copy_predicated, 1.2, order=4),
          Block(emit_tensor_copy_predicated_indirect, 0.2, needs=lambda b: b.arch == "trn3", lockstep=0.3)]
