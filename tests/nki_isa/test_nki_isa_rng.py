#!/usr/bin/python3
"""rng, rand2, set_rng_seed, rand_set_state and rand_get_state have no public
NKI 0.6 unit test: these follow their docstrings (S11.5, docs/SEMANTICS.md).
Expected values come from the NumPy XORWOW of tests/reference/ref_random.py
(written from S11.5) and from properties the docstrings state: same seed, same
numbers; get_state returns what set_state loaded; rng keeps the low bits;
rand2 is uniform in [min, max)."""
import os
import sys

import numpy as np

from harness import main

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "reference"))
import ref_random  # noqa: E402

NASM_SEEDED = """
.arch trn3
.hbm seed u32 [1, 1] input
.hbm r32 u32 [128, 64] output
.hbm r8 i8 [128, 64] output
.hbm again u32 [128, 64] output
.sbuf s u32 [1, 1]
.sbuf t32 u32 [128, 64]
.sbuf t8 i8 [128, 64]
.sbuf t2 u32 [128, 64]
dma_copy dst=s, src=seed
set_rng_seed src_seeds=s
rng dst=t32
rng dst=t8
set_rng_seed src_seeds=s
rng dst=t2, engine=vector
dma_copy dst=r32, src=t32
dma_copy dst=r8, src=t8
dma_copy dst=again, src=t2
"""


def test_rng_seeded(nisa):
    seed = np.array([[12345]], dtype=np.uint32)
    out = nisa.run(NASM_SEEDED, inputs={"seed": seed})
    state = ref_random.seeded(12345, "vector")
    first = ref_random.draw(state, np.arange(128), 64)
    second = ref_random.draw(state, np.arange(128), 64)
    nisa.equal("r32", out["r32"], first)
    nisa.equal("r8", out["r8"], (second & 0xFF).astype(np.uint8).view(np.int8))  # the least significant bits
    nisa.equal("again (same seed, same numbers)", out["again"], out["r32"])
    assert len(np.unique(out["r32"])) > 8000  # 8,192 draws of 32 bits: essentially no repeats


NASM_STATE = """
.arch trn3
.hbm words u32 [128, 6] input
.hbm vwords u32 [32, 24] input
.hbm back u32 [128, 6] output
.hbm vback u32 [32, 24] output
.hbm g u16 [128, 10] output
.hbm after u32 [128, 6] output
.sbuf w u32 [128, 6]
.sbuf v u32 [32, 24]
.sbuf b u32 [128, 6]
.sbuf vb u32 [32, 24]
.sbuf gt u16 [128, 10]
.sbuf a u32 [128, 6]
dma_copy dst=w, src=words
dma_copy dst=v, src=vwords
rand_set_state src_seeds=w
rand_set_state src_seeds=v, engine=vector
rand_get_state dst=b
rand_get_state dst=vb, engine=vector
rng dst=gt, engine=gpsimd
rand_get_state dst=a, engine=gpsimd
dma_copy dst=back, src=b
dma_copy dst=vback, src=vb
dma_copy dst=g, src=gt
dma_copy dst=after, src=a
"""


def test_rand_state_round_trip(nisa):
    rng = np.random.RandomState(5)
    words = rng.randint(0, 2 ** 32, size=(128, 6), dtype=np.uint64).astype(np.uint32)
    vwords = rng.randint(0, 2 ** 32, size=(32, 24), dtype=np.uint64).astype(np.uint32)
    out = nisa.run(NASM_STATE, inputs={"words": words, "vwords": vwords}, args=["--strict"])
    nisa.equal("back", out["back"], words)
    nisa.equal("vback", out["vback"], vwords)
    state = words.reshape(128, 1, 6).copy()
    bits = ref_random.draw(state, np.arange(128), 10)
    nisa.equal("g (GpSimd draws from the loaded state)", out["g"], (bits & 0xFFFF).astype(np.uint16))
    nisa.equal("after (the state advanced by 10 steps)", out["after"], state.reshape(128, 6))


NASM_RAND2 = """
.arch trn3
.hbm lo f32 [128, 1] input
.hbm u f32 [128, 2048] output
.hbm h bf16 [128, 64] output
.sbuf l f32 [128, 1]
.sbuf ut f32 [128, 2048]
.sbuf ht bf16 [128, 64]
dma_copy dst=l, src=lo
rand2 dst=ut, min=l, max=10.0
rand2 dst=ht, min=-1.0, max=1.0
dma_copy dst=u, src=ut
dma_copy dst=h, src=ht
"""


def test_rand2_uniform(nisa):
    lo = np.linspace(-5, 5, 128, dtype=np.float32).reshape(128, 1)
    out = nisa.run(NASM_RAND2, inputs={"lo": lo}, args=["--strict"])
    u = out["u"]
    assert np.all(u >= lo) and np.all(u <= 10.0)
    frac = (u - lo) / (10.0 - lo)  # uniform in [0, 1): mean 1/2, variance 1/12
    assert abs(frac.mean() - 0.5) < 0.005 and abs(frac.var() - 1 / 12) < 0.005
    state = ref_random.seeded(0, "vector")  # machine start: seed 0
    b1 = ref_random.unit(ref_random.draw(state, np.arange(128), 2048))
    expected = (lo + (np.float32(10.0) - lo).astype(np.float32) * b1).astype(np.float32)
    nisa.equal("u", u, expected)
    b2 = ref_random.unit(ref_random.draw(state, np.arange(128), 64))
    h32 = (np.float32(-1.0) + np.float32(2.0) * b2).astype(np.float32)
    bits = h32.view(np.uint32).astype(np.uint64)  # round to nearest even bf16
    rounded = ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16 << 16).astype(np.uint32).view(np.float32)
    nisa.equal("h", out["h"], rounded)


BAD_STATE = """
.arch trn3
.sbuf w u32 [128, 24]
rand_set_state src_seeds=w
"""


def test_rand_state_shape_checked(nisa):
    err = nisa.run(BAD_STATE, expect_status=2)
    assert "6 state words" in err, err


if __name__ == "__main__":
    main(globals())
