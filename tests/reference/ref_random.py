"""The engines' pseudo random number generators (docs/SEMANTICS.md S11.5), in
NumPy, written from that rule: XORWOW (Marsaglia 2003) states of 6 uint32 words
[x, y, z, w, v, d], 4 generators per Vector lane and 1 per GpSimd lane, seeded
by SplitMix64 from (seed << 32) | (lane * generators + generator)."""
import numpy as np

LANES = 128
GENERATORS = {"vector": 4, "gpsimd": 1}
M32, M64 = 0xFFFFFFFF, 0xFFFFFFFFFFFFFFFF


def seeded(seed, engine):
    """[LANES, generators, 6] uint32: every generator of `engine` seeded with `seed`."""
    g = GENERATORS[engine]
    state = np.zeros((LANES, g, 6), dtype=np.uint32)
    for lane in range(LANES):
        for k in range(g):
            s = ((seed & M32) << 32) | (lane * g + k)
            for w in range(6):
                s = (s + 0x9E3779B97F4A7C15) & M64
                z = s
                z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
                z ^= z >> 31
                state[lane, k, w] = z & M32
    return state


def draw(state, lanes, count):
    """32-bit draws [len(lanes), count] in row-major element order: element i of a
    lane uses its generator i mod G; the states advance in place."""
    g = state.shape[1]
    out = np.zeros((len(lanes), count), dtype=np.uint32)
    s = state[lanes].astype(np.uint64)  # [L, G, 6]
    for i in range(count):
        k = i % g
        x, y, z, w, v, d = (s[:, k, j] for j in range(6))
        t = (x ^ (x >> 2)) & M32
        v_new = ((v ^ ((v << 4) & M32)) ^ (t ^ ((t << 1) & M32))) & M32
        d_new = (d + 362437) & M32
        s[:, k] = np.stack([y, z, w, v, v_new, d_new], axis=1)
        out[:, i] = ((d_new + v_new) & M32).astype(np.uint32)
    state[lanes] = s.astype(np.uint32)
    return out


def unit(bits):
    """(b >> 8) * 2^-24 as float32: exact values in [0, 1)."""
    return ((bits >> 8).astype(np.float64) * 2.0 ** -24).astype(np.float32)
