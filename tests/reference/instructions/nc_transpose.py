"""`nc_transpose` (Tensor; or Vector by `engine=`), docs/SEMANTICS.md S8.4:
the reference model's semantics and its random instances."""
from gen_common import any_dtype, Block, compute_mem

RULE = "S8.4"


# ---- semantics ----

def nc_transpose(m, o):
    """S8.4: dst[j, p] = data[p, j], free axes flattened, bits copied."""
    m.write_raw(o["dst"], m.read_raw(o["data"]).T)


# ---- lockstep allowances (lockstep.py) ----

KEEPS_NAN_PAYLOAD = True


# ---- random programs ----

def emit_nc_transpose(b):
    """S8.4: [P, F] -> [F, P], bits, on the Tensor Engine (SBUF -> PSUM) or the Vector Engine (<= 32 x 32)."""
    vector = b.chance(0.4)
    if vector:
        s, p = b.pick([0, 32, 64, 96]), int(b.rng.integers(1, 33))
        f = int(b.rng.integers(1, 33))
    else:
        s, p = b.lanes()
        f = int(b.rng.integers(1, 129))
    dt = any_dtype(b)
    free = [f] if f < 4 or f % 2 or b.chance(0.7) else [2, f // 2]
    data = b.tile(dt, s, p, free, compute_mem(b) if vector else "sbuf")
    b.load(data, b.values(dt, (p, f), -6, 6, specials=b.chance(0.3)))
    dst = b.tile(dt, 0, f, [p], compute_mem(b) if vector else "psum")
    if not vector and dst.mem != "psum":
        return
    b.instr("nc_transpose", dst=dst, data=data, engine=b.pick(["vector"] if vector else [None, "unknown", "tensor"]))
    b.store(dst)


BLOCKS = [Block(emit_nc_transpose, 0.8, order=20, lockstep=1.2)]
