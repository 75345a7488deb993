"""`tensor_scalar_cumulative` (Vector), docs/SEMANTICS.md S4.22:
the reference model's semantics and its random instances."""
import numpy as np

from gen_common import alu_text, Block, compute_mem, scalar_or_column
from gen_indirect import emit_indirect_streamed
from ref_common import ALU, alu_stage, F32, resolve_indirect_operands, track_lanes

RULE = "S4.22"


# ---- semantics ----

def tensor_scalar_cumulative(m, o):
    """S4.22, NKI 0.6's docstring pseudocode: reg starts at op1's identity (reset_reduce), imm1
    (load_reduce) or the Vector accumulator lane (reduce); reg = op1(op0(src[i], imm0), reg),
    dst[i] = reg; the lane keeps the last reg. An .indirect() dst or src (S1.7) names the
    columns its index gives, in the view's column order."""
    o = resolve_indirect_operands(m, o, "tensor_scalar_cumulative", ("dst", "src"))
    src = m.read(o["src"])
    p = src.shape[0]
    imm0 = m.column(o["imm0"], p)
    lanes = m.lanes(o["src"])
    cmd = o["reduce_cmd"]
    acc = m.acc["vector"]
    track_lanes(m, "vector", lanes, "reset_reduce" if cmd == "load_reduce" else cmd, False)
    if cmd == "load_reduce":
        reg = m.column(o["imm1"], p)
    elif cmd == "reset_reduce":
        reg = np.full((p, 1), {"add": 0.0, "subtract": 0.0, "multiply": 1.0, "maximum": -np.inf,
                               "minimum": np.inf}[o["op1"]], dtype=F32)
    else:
        reg = acc[lanes].reshape(-1, 1).astype(F32)
    out = np.zeros(src.shape, dtype=F32)
    with np.errstate(all="ignore"):
        for i in range(src.shape[1]):
            reg = np.asarray(ALU[o["op1"]](alu_stage(o["op0"], src[:, i:i + 1], imm0, False), reg), dtype=F32)
            out[:, i:i + 1] = reg
    acc[lanes] = reg.reshape(-1)
    m.write(o["dst"], out)


# ---- random programs ----

CUMULATIVE_DTYPES = ["f32", "f32", "f32", "bf16", "f16", "i8", "i16", "u8", "u16"]


def emit_tensor_scalar_cumulative(b):
    """nki.isa.tensor_scalar_cumulative (S4.22): reset_reduce, load_reduce, or a chain continuing with reduce."""
    s, c = b.lanes()
    free = b.free_shape(64)
    n = int(np.prod(free))
    op1 = b.pick(["add", "subtract", "multiply", "maximum", "minimum"])
    op0 = b.pick(["add", "multiply", "maximum", "abs_max", "subtract"] + (["abs", "square"] if op1 != "multiply" else []))
    lo, hi = (0.9, 1.1) if "multiply" in (op0, op1) else (-4, 4)
    cmd = b.pick(["reset_reduce", "load_reduce", "chain"])
    for k in range(2 if cmd == "chain" else 1):
        sdt = b.pick(CUMULATIVE_DTYPES)
        src = b.tile(sdt, s, c, free, compute_mem(b))
        b.load(src, b.values(sdt, (c, n), lo, hi, irange=(1, 2) if "multiply" in (op0, op1) else (-3, 4)))
        imm0, _ = scalar_or_column(b, s, c, 0.95, 1.05, "f32") if op0 == "multiply" else \
            scalar_or_column(b, s, c, -1, 1, "f32")
        dst = src if b.chance(0.15) else b.tile(b.pick(CUMULATIVE_DTYPES[:5]), s, c, free, compute_mem(b))
        ops = {"dst": dst, "src": src, "op0": alu_text(b, op0), "op1": alu_text(b, op1), "imm0": imm0}
        this = "reduce" if k == 1 else ("reset_reduce" if cmd == "chain" else cmd)
        if this == "load_reduce":
            ops["imm1"], _ = scalar_or_column(b, s, c, -2, 2, "f32")
        if this != "reset_reduce" or b.chance(0.5):
            ops["reduce_cmd"] = this
        b.instr("tensor_scalar_cumulative", **ops)
        b.store(dst)


def emit_tensor_scalar_cumulative_indirect(b):
    """S1.7 (trn3): dst and/or src indirect; the register starts at op1's identity."""
    def operands(b, start, parts, n):
        return {"op0": alu_text(b, b.pick(["add", "maximum", "subtract"])), "op1": alu_text(b, b.pick(["add", "maximum", "minimum"])),
                "imm0": scalar_or_column(b, start, parts, -1, 1, "f32")[0], "reduce_cmd": "reset_reduce"}
    emit_indirect_streamed(b, "tensor_scalar_cumulative", "src", operands, dtype=lambda b: b.pick(CUMULATIVE_DTYPES[:5]))


BLOCKS = [Block(emit_tensor_scalar_cumulative, 0.6, order=23, lockstep=0.9),
          Block(emit_tensor_scalar_cumulative_indirect, 0.2, needs=lambda b: b.arch == "trn3", lockstep=0.3)]
