#!/usr/bin/python3
"""NKI 0.6 nki/test/test_nki_isa_iota.py, re-expressed in iota's NKI 0.6
form (pattern/offset/channel_multiplier, int32; S7): the test's five
expressions arange(512)[None, :], arange(128)[:, None], -arange(512),
5 + 2*arange(128)[:, None] and their broadcast sum. Golden (the test's own):
a = arange(0, 512), b = arange(0, 128)[:, None], c = -a, d = arange(5, 260, 2),
e = a + b."""
import numpy as np

from harness import main

NASM = """
.hbm a_tensor i32 [1, 512] output
.hbm b_tensor i32 [128, 1] output
.hbm c_tensor i32 [1, 512] output
.hbm d_tensor i32 [128, 1] output
.hbm e_tensor i32 [128, 512] output
.sbuf a i32 [1, 512]
.sbuf b i32 [128, 1]
.sbuf c i32 [1, 512]
.sbuf d i32 [128, 1]
.sbuf e i32 [128, 512]
iota dst=a, pattern=[[1, 512]], offset=0, channel_multiplier=0
iota dst=b, pattern=[[0, 1]], offset=0, channel_multiplier=1
iota dst=c, pattern=[[-1, 512]], offset=0, channel_multiplier=0
iota dst=d, pattern=[[0, 1]], offset=5, channel_multiplier=2
iota dst=e, pattern=[[1, 512]], offset=0, channel_multiplier=1
dma_copy dst=a_tensor, src=a
dma_copy dst=b_tensor, src=b
dma_copy dst=c_tensor, src=c
dma_copy dst=d_tensor, src=d
dma_copy dst=e_tensor, src=e
"""


def test_iota(nisa):
    out = nisa.run(NASM)
    a_golden = np.expand_dims(np.arange(0, 512), 0)
    b_golden = np.expand_dims(np.arange(0, 128), 1)
    c_golden = np.expand_dims(np.arange(0, 512) * -1, 0)
    d_golden = np.expand_dims(np.arange(5, 260, 2), 1)
    e_golden = a_golden + b_golden
    for name, golden in (("a", a_golden), ("b", b_golden), ("c", c_golden), ("d", d_golden), ("e", e_golden)):
        nisa.equal(name, out[f"{name}_tensor"], golden)


if __name__ == "__main__":
    main(globals())
