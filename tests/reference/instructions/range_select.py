"""`range_select` (Vector), docs/SEMANTICS.md S4.4:
the reference model's semantics and its random instances."""
import numpy as np

from gen_common import (COMPARE_SPELLINGS, compute_mem, float_dtype, reduce_cmd_text, reduce_res_tile,
                        REDUCE_SPELLINGS, spelled)
from ref_common import accumulate, COMPARE, F32

RULE = "S4.4"


# ---- semantics ----

def range_select(m, o):
    """The NumPy form of S4.4 (NKI's range_select docstring), literally."""
    on_true_tile = m.read(o["on_true_tile"])
    range_start = o["range_start"]
    indices = np.zeros(on_true_tile.shape)
    indices[:] = range_start + np.arange(on_true_tile[0].size)
    indices = indices.astype(F32)  # the comparison is done in FP32 (S4.4)
    bound0 = m.read(o["bound0"]).reshape(-1, 1)
    bound1 = m.read(o["bound1"]).reshape(-1, 1)
    mask = COMPARE[o["comp_op0"]](indices, bound0) & COMPARE[o["comp_op1"]](indices, bound1)
    select_out_tile = np.where(mask, on_true_tile, F32(o["on_false_value"])).astype(F32)
    m.write(o["dst"], select_out_tile)
    accumulate(m, "vector", o["on_true_tile"], o["reduce_cmd"], o["reduce_op"], select_out_tile,
               o.get("reduce_res"))


# ---- lockstep allowances (lockstep.py) ----

ZERO_SIGN_OPEN = True


# ---- random programs ----

def range_select_operands(b, s, c, n, range_start):
    """Bounds around the index window [range_start, range_start + n) (S4.4)."""
    lo, hi = range_start - 4, range_start + n + 4
    b0, _ = b.column(s, c, lo, hi, "f32")
    b1, _ = b.column(s, c, lo, hi, "f32")
    ops = (spelled(b, COMPARE_SPELLINGS, b.pick(list(COMPARE_SPELLINGS))),
           spelled(b, COMPARE_SPELLINGS, b.pick(list(COMPARE_SPELLINGS))))
    return b0, b1, ops


def emit_range_select(b, s, c, cmd, with_res, store_dst=True):
    free = b.free_shape()
    n = int(np.prod(free))
    odt = float_dtype(b)
    on_true = b.tile(odt, s, c, free, compute_mem(b))
    b.load(on_true, b.values(odt, (c, n), -50, 50, specials=b.chance(0.2)))
    range_start = b.pick([0, 0, int(b.rng.integers(-40, 40)), int(b.rng.integers(0, 5000))])
    b0, b1, (cmp0, cmp1) = range_select_operands(b, s, c, n, range_start)
    dst = on_true if b.chance(0.15) else b.tile(float_dtype(b), s, c, free, compute_mem(b))
    res = reduce_res_tile(b, s, c, exact=True) if with_res else None
    ops = {"dst": dst, "on_true_tile": on_true, "comp_op0": cmp0, "comp_op1": cmp1, "bound0": b0, "bound1": b1,
           "reduce_cmd": reduce_cmd_text(b, cmd), "reduce_res": res}
    if range_start != 0 or b.chance(0.3):
        ops["range_start"] = range_start
    if b.chance(0.2):
        ops["reduce_op"] = spelled(b, REDUCE_SPELLINGS, "maximum")
    if b.chance(0.2):
        ops["on_false_value"] = "fp32.min"
    b.instr("range_select", **ops)
    if store_dst or dst is on_true:
        b.store(dst)
    if res is not None:
        b.store(res)


EMITTED_BY = "gen_programs.block_vector_acc, block_vector_chain (S3 chains), block_rept"
