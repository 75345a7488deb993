#!/usr/bin/python3
"""NKI 0.6 nki/test/test_nki_isa_memset.py, re-expressed: fill a float32
[128, 128] tile with 0.2. Golden (the test's own):
np.full([128, 128], 0.2).astype(np.float32); the scalar is rounded to float32
once (LANGUAGE.md 2.3), so the match is exact."""
import numpy as np

from harness import main

NASM = """
.hbm a_tensor f32 [128, 128] output
.sbuf a f32 [128, 128]
memset dst=a, value=0.2
dma_copy dst=a_tensor, src=a
"""


def test_memset(nisa):
    out = nisa.run(NASM)
    nisa.equal("a_tensor", out["a_tensor"], np.full([128, 128], 0.2).astype(np.float32))


if __name__ == "__main__":
    main(globals())
