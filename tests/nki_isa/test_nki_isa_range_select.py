#!/usr/bin/python3
"""NKI 0.6 nki/test/test_nki_isa_range_select.py, re-expressed (S4.4, S3),
on trn2 as the test: example 1 for each dtype it loops over (float8_e4m3,
float8_e5m2, bfloat16, float16, float32), bound0 <= 32 + i < bound1 with a
max reduction; example 2 chains three range_selects through the Vector
accumulator (reset_reduce without reduce_res, reduce, then reduce with
reduce_res), adding 1 to the data between them.
Goldens (the test's own formulas): where(mask, on_true, fp32.min) rounded to
the dtype, its row max; the chained running max."""
import numpy as np

from harness import main, round_to

FP32_MIN = np.float32(-3.4028234663852886e38)


def example(dtype):
    return f"""
.arch trn2
.hbm on_true {dtype} [128, 512] input
.hbm bound0 f32 [128, 1] input
.hbm bound1 f32 [128, 1] input
.hbm select_res {dtype} [128, 512] output
.hbm reduce_result {dtype} [128, 1] output
.sbuf on_true_tile {dtype} [128, 512]
.sbuf bound0_tile f32 [128, 1]
.sbuf bound1_tile f32 [128, 1]
.sbuf reduce_res_tile {dtype} [128, 1]
.sbuf result {dtype} [128, 512]
dma_copy dst=on_true_tile, src=on_true
dma_copy dst=bound0_tile, src=bound0
dma_copy dst=bound1_tile, src=bound1
range_select dst=result, on_true_tile=on_true_tile, comp_op0=greater_equal, comp_op1=less, bound0=bound0_tile, bound1=bound1_tile, reduce_cmd=reset_reduce, reduce_res=reduce_res_tile, reduce_op=maximum, range_start=32, on_false_value=fp32.min
dma_copy dst=select_res, src=result
dma_copy dst=reduce_result, src=reduce_res_tile
"""


def test_range_select_example(nisa):
    rng = np.random.default_rng(0)
    bound0 = np.zeros([128, 1], dtype=np.float32)
    bound1 = np.full([128, 1], 64, dtype=np.float32)
    range_start = 32
    for dtype in ("fp8e4m3", "fp8e5m2", "bf16", "f16", "f32"):
        # random_sample(...).astype(dtype), as the test: values of the dtype
        on_true_data = round_to(dtype, rng.random((128, 512)).astype(np.float32))
        npy_in = on_true_data.astype(np.float16) if dtype == "f16" else on_true_data
        out = nisa.run(example(dtype), inputs={"on_true": npy_in, "bound0": bound0, "bound1": bound1})
        indices = np.zeros_like(on_true_data, dtype=np.float32)
        indices[:] = range_start + np.arange(on_true_data.shape[1])
        mask = np.greater_equal(indices, bound0) & np.less(indices, bound1)
        golden = np.where(mask, on_true_data, FP32_MIN)
        golden_reduce = np.max(golden, axis=1, keepdims=True)
        nisa.close(f"{dtype} result", out["select_res"].astype(np.float32), round_to(dtype, golden),
                   rtol=1e-5, atol=1e-8)
        nisa.close(f"{dtype} reduction", out["reduce_result"].astype(np.float32), round_to(dtype, golden_reduce),
                   rtol=1e-5, atol=1e-8)


CHAINING = """
.arch trn2
.hbm on_true f32 [128, 512] input
.hbm bound0 f32 [128, 1] input
.hbm bound1 f32 [128, 1] input
.hbm select_res f32 [128, 512] output
.hbm reduce_result f32 [128, 1] output
.sbuf on_true_tile f32 [128, 512]
.sbuf bound0_tile f32 [128, 1]
.sbuf bound1_tile f32 [128, 1]
.sbuf reduce_res_sbuf f32 [128, 1]
.sbuf result_sbuf f32 [128, 512]
.sbuf ones f32 [128, 512]
dma_copy dst=on_true_tile, src=on_true
dma_copy dst=bound0_tile, src=bound0
dma_copy dst=bound1_tile, src=bound1
range_select dst=result_sbuf, on_true_tile=on_true_tile, comp_op0=greater_equal, comp_op1=less, bound0=bound0_tile, bound1=bound1_tile, reduce_cmd=reset_reduce, reduce_op=maximum, range_start=32, on_false_value=fp32.min
memset dst=ones, value=1
tensor_tensor dst=on_true_tile, data1=on_true_tile, data2=ones, op=add
range_select dst=result_sbuf, on_true_tile=on_true_tile, comp_op0=greater_equal, comp_op1=less, bound0=bound0_tile, bound1=bound1_tile, reduce_cmd=reduce, reduce_op=maximum, range_start=32 + 128, on_false_value=fp32.min
tensor_tensor dst=on_true_tile, data1=on_true_tile, data2=ones, op=add
range_select dst=result_sbuf, on_true_tile=on_true_tile, comp_op0=greater_equal, comp_op1=less, bound0=bound0_tile, bound1=bound1_tile, reduce_cmd=reduce, reduce_res=reduce_res_sbuf, reduce_op=maximum, range_start=32 + 2 * 128, on_false_value=fp32.min
dma_copy dst=select_res, src=result_sbuf
dma_copy dst=reduce_result, src=reduce_res_sbuf
"""


def test_range_select_chaining(nisa):
    on_true_data = np.random.default_rng(1).random((128, 512)).astype(np.float32)
    range_start = 32
    bound0 = np.zeros([128, 1], dtype=np.float32)
    bound1 = np.full([128, 1], 350, dtype=np.float32)
    out = nisa.run(CHAINING, inputs={"on_true": on_true_data, "bound0": bound0, "bound1": bound1})
    indices = np.zeros_like(on_true_data)
    golden = on_true_data.copy()
    golden_max = np.zeros((on_true_data.shape[0], 1), dtype=on_true_data.dtype)
    selected = golden_max.copy()
    iteration_step_size = on_true_data.shape[0]
    for i in range(3):
        indices[:] = range_start + (i * iteration_step_size) + np.arange(on_true_data.shape[1])
        mask = np.greater_equal(indices, bound0) & np.less(indices, bound1)
        selected = np.where(mask, golden, FP32_MIN)
        golden_max = np.maximum(golden_max, np.max(selected, axis=1, keepdims=True))
        golden = golden + 1
    nisa.close("result", out["select_res"], selected, rtol=1e-5, atol=1e-8)
    nisa.close("reduction", out["reduce_result"], golden_max, rtol=1e-5, atol=1e-8)


if __name__ == "__main__":
    main(globals())
