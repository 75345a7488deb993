"""`nc_match_replace8` (Vector), docs/SEMANTICS.md S4.34:
the reference model's semantics and its random instances."""
from gen_common import Block, compute_mem, float_dtype, selection_operands
from ref_common import F32, match8, write_indices

RULE = "S4.34"


# ---- semantics ----

def nc_match_replace8(m, o):
    """S4.34: vals in order 7..0, each to the first untaken equal element, replaced by imm."""
    data, vals = m.read(o["data"]), m.read(o["vals"])
    found = [match8(data[p], vals[p], range(7, -1, -1)) for p in range(data.shape[0])]
    out = data.copy()
    for p, f in enumerate(found):
        for i in f.values():
            out[p, i] = F32(o["imm"])
    m.write(o["dst"], out)
    if o.get("dst_idx") is not None:
        write_indices(m, o["dst_idx"], found)


# ---- random programs ----

def emit_nc_match_replace8(b):
    s, c, data, vals = selection_operands(b)
    imm = b.pick([float("-inf"), 0.0, -1.5, float(b.values("f32", (1,), -100, 100)[0])])
    ops = {"imm": imm}
    if b.chance(0.2):
        dst = data  # NKI's in-place form
    else:
        dst = b.tile(b.pick(["f32", data.dtype, float_dtype(b)]), s, c, data.free, compute_mem(b))
    if b.chance(0.7):
        ops["dst_idx"] = b.tile(b.pick(["u32", "u16"]), s, c, [8], compute_mem(b))
    b.instr("nc_match_replace8", dst=dst, data=data, vals=vals, **ops)
    b.store(dst)
    if "dst_idx" in ops:
        b.store(ops["dst_idx"])


BLOCKS = [Block(emit_nc_match_replace8, 0.5, order=34, lockstep=1.2)]
