#!/usr/bin/python3
"""NKI 0.6 nki/test/test_nki_isa_copypredicated.py, re-expressed (S4.2):
dst starts as on_false, then tensor_copy_predicated copies on_true where the
predicate (a <= 0.8, a bool array read into a u8 tile, LANGUAGE.md 3) holds.
Golden (the test's own): np.where(np.less_equal(a, 0.8), a, b)."""
import numpy as np

from harness import main

NASM = """
.hbm predicate u8 [128, 512] input
.hbm on_true_tensor f32 [128, 512] input
.hbm on_false_tensor f32 [128, 512] input
.hbm out_tensor f32 [128, 512] output
.sbuf pre_tile u8 [128, 512]
.sbuf src_tile f32 [128, 512]
.sbuf dst_tile f32 [128, 512]
dma_copy dst=pre_tile, src=predicate
dma_copy dst=src_tile, src=on_true_tensor
dma_copy dst=dst_tile, src=on_false_tensor
tensor_copy_predicated dst=dst_tile, src=src_tile, predicate=pre_tile
dma_copy dst=out_tensor, src=dst_tile
"""


def test_copy_predicated(nisa):
    np.random.seed(0)
    a = np.random.random_sample([128, 512]).astype(np.float32) * 100
    b = np.random.random_sample([128, 512]).astype(np.float32) * 100
    pred = np.less_equal(a, 0.8)
    assert pred.any() and not pred.all()  # both branches are exercised
    out = nisa.run(NASM, inputs={"predicate": pred, "on_true_tensor": a, "on_false_tensor": b})
    nisa.equal("out_tensor", out["out_tensor"], np.where(pred, a, b))


if __name__ == "__main__":
    main(globals())
