"""`nc_find_index8` (Vector), docs/SEMANTICS.md S4.33:
the reference model's semantics and its random instances."""
from gen_common import Block, compute_mem, selection_operands
from ref_common import match8, write_indices

RULE = "S4.33"


# ---- semantics ----

def nc_find_index8(m, o):
    """S4.33: vals in order 0..7, each to the first untaken equal element of data."""
    data, vals = m.read(o["data"]), m.read(o["vals"])
    write_indices(m, o["dst"], [match8(data[p], vals[p], range(8)) for p in range(data.shape[0])])


# ---- random programs ----

def emit_nc_find_index8(b):
    s, c, data, vals = selection_operands(b)
    dst = b.tile(b.pick(["u32", "u16"]), s, c, [8], compute_mem(b))
    b.instr("nc_find_index8", dst=dst, data=data, vals=vals)
    b.store(dst)


BLOCKS = [Block(emit_nc_find_index8, 0.5, order=33, lockstep=1.5)]
