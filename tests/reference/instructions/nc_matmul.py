"""`nc_matmul` (Tensor), docs/SEMANTICS.md S8.3:
the reference model's semantics and its random instances."""
import numpy as np

from gen_common import Block
import nasm_reader
from ref_common import F32, matmul_wrote

RULE = "S8.3"


# ---- semantics ----

_ARCH_VERSION = {a["name"]: a["version"] for a in nasm_reader.SPEC["archs"]}


def nc_matmul(m, o):
    """S8.3: dst = stationary.T @ moving; float32 products, summed from 0 with k ascending
    (double_row: rows (k, 0), (k, 1), ...); accumulate adds onto dst; is_transpose starts at -0.0
    and leaves out products of a zero moving value."""
    dst = o["dst"]
    st, mv = m.read(o["stationary"]), m.read(o["moving"])
    if o["perf_mode"] == "double_row":  # [K, 2, F] row-major is [2K, F]
        st = st.reshape(2 * st.shape[0], -1)
        mv = mv.reshape(2 * mv.shape[0], -1)
    transpose = o["is_transpose"]
    acc = np.full((st.shape[1], mv.shape[1]), -0.0 if transpose else 0.0, dtype=F32)
    with np.errstate(all="ignore"):
        for k in range(st.shape[0]):
            prod = np.multiply.outer(st[k], mv[k]).astype(F32)
            if transpose:
                prod = np.where(mv[k] != 0, prod, F32(-0.0))  # adding -0.0 changes nothing
            acc = (acc + prod).astype(F32)
        earlier_any, earlier_all = matmul_wrote(m, dst)
        accumulate = o.get("accumulate")
        if accumulate is None:
            accumulate = earlier_any
        if accumulate:
            acc = (m.read(dst) + acc).astype(F32)
            if not earlier_all and _ARCH_VERSION[m.prog.arch] < 4:
                m.note_hazard("accumulates onto PSUM bytes no earlier nc_matmul wrote (S8.3, NeuronCore-v2/v3)")
    m.write(dst, acc)


# ---- random programs ----

MATMUL_INPUTS = ["bf16", "f16", "fp8e4m3", "fp8e5m2"]


def emit_nc_matmul(b):
    """S8.3: [K, M].T @ [K, N] into PSUM, sometimes tiled, accumulated, double_row or transposing."""
    v3 = b.arch in ("trn2", "trn3")
    double_row = v3 and b.chance(0.2)
    s, k = b.lanes()
    tiling = None
    if b.chance(0.3):
        rows, cols = b.pick([64, 128] + ([32] if v3 else [])), 128 if double_row else b.pick([64, 128] + ([32] if v3 else []))
        if k <= rows:
            tiling = ([b.pick(range(0, 128, rows)), b.pick(range(0, 128, cols))], [rows, cols])
    m = int(b.rng.integers(1, (tiling[1][1] if tiling else 128) + 1))
    n = int(b.rng.integers(1, 65))
    wide = not double_row and b.chance(0.25)
    dts = ["fp8e4m3", "fp8e5m2"] if double_row else ["f32", "tf32"] if wide else MATMUL_INPUTS
    split = [2] if double_row else []
    ops = []
    for f in (m, n):
        dt = b.pick(dts)
        t = b.tile(dt, s, k, split + [f], "sbuf")
        b.load(t, b.values(dt, (k, (2 if double_row else 1) * f), -3, 3))
        ops.append(t)
    transpose = not double_row and b.chance(0.15)
    ddt = "bf16" if b.arch == "trn3" and b.chance(0.3) else "f32"
    dst = b.tile(ddt, 0, m, [n], "psum")
    if dst.mem != "psum":  # PSUM budget used up
        return
    extra = {}
    if tiling:
        extra = {"tile_position": f"[{tiling[0][0]}, {tiling[0][1]}]", "tile_size": f"[{tiling[1][0]}, {tiling[1][1]}]"}
    common = dict(dst=dst, stationary=ops[0], moving=ops[1], is_transpose=True if transpose else None,
                  perf_mode=("double_row" if b.chance(0.5) else "double_row_gen3") if double_row else None, **extra)
    b.instr("nc_matmul", accumulate=b.pick([False, None]), **common)
    if b.chance(0.5):  # a second product onto the first: true, or None (an earlier nc_matmul wrote dst)
        b.instr("nc_matmul", accumulate=b.pick([True, None]), is_moving_onezero=b.pick([None, True]), **common)
    b.store(dst)


BLOCKS = [Block(emit_nc_matmul, 1.0, order=19, lockstep=0.8)]
