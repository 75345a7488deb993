#!/usr/bin/python3
"""NKI 0.6 nki/test/test_nki_isa_select_reduce.py, re-expressed (S4.3, S3):
basic select with on_false = fp32.min; select with a per-partition on_false
tile and a max reduction into reduce_res (reset_reduce); reverse_pred.
Goldens (the test's own): first half 1.0 / second half fp32.min;
np.where(pred, on_true, on_false) and its row max; the reversed halves."""
import numpy as np

from harness import main

FP32_MIN = np.float32(-3.4028234663852886e38)


def program(shape, body, extra_inputs="", extra_outputs="", extra_tiles=""):
    p, f = shape
    return f"""
.hbm predicate_data u8 [{p}, {f}] input
.hbm on_true_data f32 [{p}, {f}] input
{extra_inputs}
.hbm result_tensor f32 [{p}, {f}] output
{extra_outputs}
.sbuf predicate u8 [{p}, {f}]
.sbuf on_true f32 [{p}, {f}]
.sbuf dst f32 [{p}, {f}]
{extra_tiles}
dma_copy dst=predicate, src=predicate_data
dma_copy dst=on_true, src=on_true_data
{body}
dma_copy dst=result_tensor, src=dst
"""


def halves():
    on_true = np.ones((128, 64), dtype=np.float32)
    predicate = np.zeros((128, 64), dtype=np.uint8)
    predicate[0:64, :] = 1
    return on_true, predicate


def test_select_reduce_basic(nisa):
    on_true, predicate = halves()
    nasm = program((128, 64), "select_reduce dst=dst, predicate=predicate, on_true=on_true, on_false=fp32.min")
    result = nisa.run(nasm, inputs={"predicate_data": predicate, "on_true_data": on_true})["result_tensor"]
    assert result.shape == (128, 64)
    nisa.equal("first half", result[0:64], np.full((64, 64), 1.0, np.float32))
    nisa.equal("second half", result[64:], np.full((64, 64), FP32_MIN))


def test_select_reduce_with_reduction(nisa):
    np.random.seed(0)
    on_true = np.random.random_sample([128, 512]).astype(np.float32) * 100
    on_false = np.random.random_sample([128, 1]).astype(np.float32) * 100
    predicate = np.random.randint(low=0, high=2, size=[128, 512], dtype=np.bool_)
    nasm = program(
        (128, 512),
        "dma_copy dst=on_false, src=on_false_data\n"
        "select_reduce dst=dst, predicate=predicate, on_true=on_true, on_false=on_false, "
        "reduce_cmd=reset_reduce, reduce_res=reduce_res, reduce_op=maximum\n"
        "dma_copy dst=reduce_tensor, src=reduce_res",
        extra_inputs=".hbm on_false_data f32 [128, 1] input",
        extra_outputs=".hbm reduce_tensor f32 [128, 1] output",
        extra_tiles=".sbuf on_false f32 [128, 1]\n.sbuf reduce_res f32 [128, 1]")
    out = nisa.run(nasm, inputs={"predicate_data": predicate, "on_true_data": on_true, "on_false_data": on_false})
    golden_result = np.where(predicate, on_true, on_false)
    golden_reduce = np.max(golden_result, axis=1, keepdims=True)
    nisa.equal("result", out["result_tensor"], golden_result)
    nisa.equal("reduction", out["reduce_tensor"], golden_reduce)


def test_select_reduce_reverse_pred(nisa):
    on_true, predicate = halves()
    nasm = program((128, 64), "select_reduce dst=dst, predicate=predicate, on_true=on_true, on_false=fp32.min, "
                              "reverse_pred=true")
    result = nisa.run(nasm, inputs={"predicate_data": predicate, "on_true_data": on_true})["result_tensor"]
    nisa.equal("first half", result[0:64], np.full((64, 64), FP32_MIN))
    nisa.equal("second half", result[64:], np.full((64, 64), 1.0, np.float32))


if __name__ == "__main__":
    main(globals())
