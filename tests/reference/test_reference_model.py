#!/usr/bin/python3
"""Self-tests of the NumPy reference model against the worked examples of NKI's
docstrings (S4) and hand-picked bit patterns (S2). Expected values come from
those examples and docs/SEMANTICS.md, derived by hand."""
import os
import sys
import unittest

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nki_ref  # noqa: E402
import ref_dtypes as d  # noqa: E402

FP32_MIN = np.finfo(np.float32).min


def run(text, **inputs):
    outputs, machine = nki_ref.run_program(text, inputs)
    return outputs, machine


def bits(name, x):
    return int(d.encode(name, np.array([x], dtype=np.float32))[0])


class Conversions(unittest.TestCase):
    def test_bf16_rounds_half_to_even(self):  # S2.2
        self.assertEqual(bits("bf16", 1 + 2 ** -8), 0x3F80)          # tie -> even (1.0)
        self.assertEqual(bits("bf16", 1 + 3 * 2 ** -8), 0x3F82)      # tie -> even (up)
        self.assertEqual(bits("bf16", 1 + 2 ** -8 + 2 ** -20), 0x3F81)

    def test_fp32_min_to_16_and_8_bit_floats_is_minus_inf(self):  # S2.4, S4.4
        self.assertEqual(bits("bf16", FP32_MIN), 0xFF80)
        self.assertEqual(bits("f16", FP32_MIN), 0xFC00)
        self.assertEqual(bits("fp8e4m3", FP32_MIN), 0xF8)
        self.assertEqual(bits("fp8e5m2", FP32_MIN), 0xFC)

    def test_fp8e4m3_is_ieee_like(self):  # S2.2: max 240, overflow to inf
        self.assertEqual(d.decode("fp8e4m3", np.array([0x77], np.uint8))[0], 240.0)
        self.assertEqual(bits("fp8e4m3", 300.0), 0x78)               # +inf
        self.assertEqual(bits("fp8e4m3", 247.0), 0x77)               # below 248 -> 240
        self.assertEqual(bits("fp8e4m3", 248.0), 0x78)               # halfway, ties to even -> inf
        self.assertTrue(np.isnan(d.decode("fp8e4m3", np.array([0x79], np.uint8))[0]))

    def test_fp8e4m3fn_saturates_at_448(self):  # S2.2: no inf, only S.1111.111 is NaN
        self.assertEqual(d.decode("fp8e4m3fn", np.array([0x7E], np.uint8))[0], 448.0)
        self.assertEqual(bits("fp8e4m3fn", 500.0), 0x7E)
        self.assertEqual(bits("fp8e4m3fn", -1e30), 0xFE)
        self.assertTrue(np.isnan(d.decode("fp8e4m3fn", np.array([0x7F], np.uint8))[0]))
        self.assertEqual(d.decode("fp8e4m3fn", np.array([0x78], np.uint8))[0], 256.0)

    def test_fp8_subnormals_are_kept(self):  # S2.2
        self.assertEqual(bits("fp8e4m3", 2.0 ** -9), 0x01)
        self.assertEqual(bits("fp8e4m3", 2.0 ** -10), 0x00)          # tie -> even (zero)
        self.assertEqual(bits("fp8e4m3", 3 * 2.0 ** -10), 0x02)      # tie -> even
        self.assertEqual(bits("fp8e5m2", 2.0 ** -16), 0x01)
        self.assertEqual(bits("fp8e5m2", 57344.0), 0x7B)
        self.assertEqual(bits("fp8e5m2", 61440.0), 0x7C)             # halfway above max -> inf

    def test_tf32_keeps_ten_mantissa_bits(self):  # S2.2
        self.assertEqual(bits("tf32", 1 + 2 ** -11), 0x3F800000)
        self.assertEqual(bits("tf32", 1 + 2 ** -10 + 2 ** -11), 0x3F804000)

    def test_f16_subnormal_and_overflow(self):
        self.assertEqual(bits("f16", 2.0 ** -24), 0x0001)
        self.assertEqual(bits("f16", 65520.0), 0x7C00)

    def test_integers_round_half_even_saturate_nan_zero(self):  # S2.3
        x = np.array([2.5, 3.5, -2.5, 127.5, -300.0, np.nan, np.inf], dtype=np.float32)
        self.assertEqual(d.encode("i8", x).tolist(), [2, 4, -2, 127, -128, 0, 127])
        self.assertEqual(d.encode("u8", x).tolist(), [2, 4, 0, 128, 0, 0, 255])
        self.assertEqual(d.encode("u32", np.array([5e9], np.float32)).tolist(), [4294967295])


class DocumentedExamples(unittest.TestCase):
    def test_s4_1_nonzero_with_count(self):
        prog = """
.arch trn2
.hbm x f32 [1, 8] input
.hbm y i32 [1, 9] output
.sbuf tx f32 [1, 8]
.sbuf ty i32 [1, 9]
dma_copy dst=tx, src=x
nonzero_with_count dst=ty, src=tx, index_offset=16, padding_val=-1
dma_copy dst=y, src=ty
"""
        out, _ = run(prog, x=np.array([[0, 1, 1, 0, 0, 1, 0, 0]], np.float32))
        self.assertEqual(out["y"].tolist(), [[17, 18, 21, -1, -1, -1, -1, -1, 3]])

    def test_s4_1_only_partitions_16k_are_written(self):
        prog = """
.arch trn2
.hbm x i32 [32, 4] input
.hbm y i32 [32, 5] output
.sbuf tx i32 [32, 4]
.sbuf ty i32 [32, 5]
dma_copy dst=tx, src=x
memset dst=ty, value=7
nonzero_with_count dst=ty, src=tx
dma_copy dst=y, src=ty
"""
        x = np.zeros((32, 4), np.int32)
        x[:, 2] = 5
        x[16, 0] = -1
        out, _ = run(prog, x=x)
        self.assertEqual(out["y"][0].tolist(), [2, -1, -1, -1, 1])
        self.assertEqual(out["y"][16].tolist(), [0, 2, -1, -1, 2])
        self.assertEqual(out["y"][1].tolist(), [7] * 5)
        self.assertEqual(out["y"][31].tolist(), [7] * 5)

    def test_s4_2_copy_predicated_keeps_false_lanes(self):
        prog = """
.hbm y bf16 [2, 4] output
.sbuf p u8 [2, 4]
.sbuf t bf16 [2, 4]
.sbuf s bf16 [2, 4]
iota dst=p, base=0, partition_step=0, free_step=1
memset dst=t, value=-1
memset dst=s, value=3.5
tensor_copy_predicated dst=t, src=s, predicate=p[:, :], reverse_pred=true
dma_copy dst=y, src=t
"""
        out, _ = run(prog)
        self.assertEqual(out["y"].tolist(), [[3.5, -1, -1, -1]] * 2)

    def test_s4_3_select_reduce_max(self):
        prog = """
.hbm x f32 [2, 3] input
.hbm y f32 [2, 3] output
.hbm r f32 [2, 1] output
.sbuf tx f32 [2, 3]
.sbuf p i8 [2, 3]
.sbuf ty f32 [2, 3]
.sbuf tr f32 [2, 1]
dma_copy dst=tx, src=x
iota dst=p, base=-1, partition_step=1, free_step=1
select_reduce dst=ty, predicate=p, on_true=tx, on_false=-5.0, reduce_res=tr, reduce_cmd=reset_reduce
dma_copy dst=y, src=ty
dma_copy dst=r, src=tr
"""
        out, _ = run(prog, x=np.array([[1, 2, 3], [9, -8, 4]], np.float32))
        # predicate rows: [-1, 0, 1] and [0, 1, 2]
        self.assertEqual(out["y"].tolist(), [[1, -5, 3], [-5, -8, 4]])
        self.assertEqual(out["r"].ravel().tolist(), [3, 4])

    def test_s4_4_chained_max(self):
        # Example 2: reset_reduce, then reduce twice after adding ones; reduce_res on the last.
        prog = """
.hbm x f32 [2, 8] input
.hbm b0 f32 [2, 1] input
.hbm b1 f32 [2, 1] input
.hbm y f32 [2, 8] output
.hbm r f32 [2, 1] output
.sbuf t f32 [2, 8]
.sbuf lo f32 [2, 1]
.sbuf hi f32 [2, 1]
.sbuf o f32 [2, 8]
.sbuf rr f32 [2, 1]
dma_copy dst=t, src=x
dma_copy dst=lo, src=b0
dma_copy dst=hi, src=b1
range_select dst=o, on_true_tile=t, comp_op0=greater_equal, comp_op1=less, bound0=lo, bound1=hi, reduce_cmd=reset_reduce, range_start=0
tensor_scalar dst=t, data=t, op0=add, operand0=1.0
range_select dst=o, on_true_tile=t, comp_op0=greater_equal, comp_op1=less, bound0=lo, bound1=hi, reduce_cmd=reduce, range_start=2
tensor_scalar dst=t, data=t, op0=add, operand0=1.0
range_select dst=o, on_true_tile=t, comp_op0=greater_equal, comp_op1=less, bound0=lo, bound1=hi, reduce_cmd=reduce, reduce_res=rr, range_start=4
dma_copy dst=y, src=o
dma_copy dst=r, src=rr
"""
        x = np.array([[10, 0, 0, 0, 0, 0, 0, 0], [0, 1, 2, 3, 4, 5, 6, 7]], np.float32)
        b0 = np.array([[0], [100]], np.float32)
        b1 = np.array([[3], [200]], np.float32)
        out, m = run(prog, x=x, b0=b0, b1=b1)
        # row 0: pass 1 keeps idx 0..2 (max 10); pass 2 idx 2..9 keeps i=0 (11); pass 3 keeps none.
        self.assertEqual(out["r"].ravel().tolist(), [11.0, FP32_MIN])
        self.assertEqual(out["y"][1].tolist(), [FP32_MIN] * 8)
        self.assertEqual(out["y"][0].tolist(), [FP32_MIN] * 8)

    def test_s4_4_stability_note_bf16(self):  # S3: r from f32 results; dst bf16 holds -inf
        prog = """
.hbm y bf16 [1, 4] output
.hbm r f32 [1, 1] output
.sbuf t f32 [1, 4]
.sbuf lo f32 [1, 1]
.sbuf o bf16 [1, 4]
.sbuf rr f32 [1, 1]
memset dst=t, value=1
memset dst=lo, value=100
range_select dst=o, on_true_tile=t, comp_op0=greater, comp_op1=greater, bound0=lo, bound1=lo, reduce_cmd=reset_reduce, reduce_res=rr
dma_copy dst=y, src=o
dma_copy dst=r, src=rr
"""
        out, _ = run(prog)
        self.assertTrue(np.all(np.isneginf(out["y"])))
        self.assertEqual(out["r"][0, 0], FP32_MIN)

    def test_s4_5_activate2_scale_bias_and_reductions(self):
        prog = """
.arch trn3
.hbm x f32 [2, 3] input
.hbm y f32 [2, 3] output
.hbm r f32 [2, 1] output
.sbuf tx f32 [2, 3]
.sbuf ty f32 [2, 3]
.sbuf tr f32 [2, 1]
dma_copy dst=tx, src=x
activate2 dst=ty, op=relu, data=tx, imm0=2.0, imm1=0.5, op0=multiply, op1=subtract, reverse1=true, reduce_op=abs_max, reduce_cmd=reset_reduce
activate2 dst=ty, op=copy, data=tx, imm0=2.0, imm1=0.0, op0=multiply, op1=bypass, reduce_op=abs_max, reduce_cmd=reduce, reduce_res=tr
dma_copy dst=y, src=ty
dma_copy dst=r, src=tr
"""
        x = np.array([[1, -2, 0.25], [-4, 0, 3]], np.float32)
        out, _ = run(prog, x=x)
        # first: relu(0.5 - 2x) = [0, 4.5, 0], [8.5, 0.5, 0]; second: 2x
        self.assertEqual(out["y"].tolist(), [[2, -4, 0.5], [-8, 0, 6]])
        self.assertEqual(out["r"].ravel().tolist(), [4.5, 8.5])

    def test_scalar_accumulator_starts_at_zero_and_idle_keeps_it(self):  # S1.3, S3
        prog = """
.hbm r f32 [4, 1] output
.hbm v f32 [4, 1] output
.sbuf t f32 [4, 2]
.sbuf o f32 [4, 2]
.sbuf rr f32 [4, 1]
.sbuf vv f32 [4, 1]
memset dst=t, value=1.5
activation dst=o, op=copy, data=t, reduce_res=rr
range_select dst=o, on_true_tile=t, comp_op0=less, comp_op1=less, bound0=vv, bound1=vv, reduce_res=vv
dma_copy dst=r, src=rr
dma_copy dst=v, src=vv
"""
        out, _ = run(prog)
        self.assertEqual(out["r"].ravel().tolist(), [0.0] * 4)
        self.assertTrue(np.all(np.isneginf(out["v"])))

    def test_accumulator_lanes_are_physical_partitions(self):  # S1.3
        prog = """
.hbm r f32 [64, 1] output
.sbuf t f32 [64, 2]
.sbuf o f32 [64, 2]
.sbuf rr f32 [64, 1]
memset dst=t, value=2
activation dst=o[32:64], op=copy, data=t[32:64], reduce_op=add, reduce_cmd=reset_reduce
memset dst=t, value=5
activation dst=o[32:64], op=copy, data=t[32:64], reduce_op=add, reduce_cmd=reduce
activation dst=o, op=copy, data=t, reduce_res=rr
dma_copy dst=r, src=rr
"""
        out, _ = run(prog)
        self.assertEqual(out["r"].ravel().tolist(), [0.0] * 32 + [14.0] * 32)

    def test_aliased_declarations_share_bytes(self):  # LANGUAGE.md 2.1 (@ OFFSET)
        prog = """
.hbm y u16 [1, 2] output
.sbuf a f32 [1, 1] @ 128
.sbuf b u16 [1, 2] @ 128
memset dst=a, value=1.0
dma_copy dst=y, src=b
"""
        out, _ = run(prog)
        self.assertEqual(out["y"].tolist(), [[0x0000, 0x3F80]])

    def test_rept_and_expressions(self):  # LANGUAGE.md 2.1
        prog = """
.equ W, 3
.hbm y i32 [1, 12] output
.sbuf t i32 [1, 12]
.rept i, 4
memset dst=t[0, i*W:(i+1)*W], value=-7/2*(i+1) + 7%3
.endr
dma_copy dst=y, src=t
"""
        out, _ = run(prog)
        self.assertEqual(out["y"].tolist(), [[-2] * 3 + [-5] * 3 + [-8] * 3 + [-11] * 3])

    def test_s4_7_index_stride_and_an_ap_index(self):  # LANGUAGE.md 2.3, S4.7
        # x [2, 3, 4] holds 0..23; the index column is column 1 of idx. With
        # index_stride=4 (x.reshape((6, 4))) partition p reads row idx[p, 1] of
        # the reshape, elements 1..2; without it, a row of x is 12 elements.
        prog = """
.hbm x i32 [2, 3, 4] input = iota
.hbm rows i32 [3, 2] input
.hbm g i32 [3, 2] output
.hbm h i32 [1, 2] output
.sbuf idx i32 [3, 2]
.sbuf one i32 [1, 1]
.sbuf t i32 [3, 2]
.sbuf u i32 [1, 2]
dma_copy dst=idx, src=rows
memset dst=one, value=1
dma_copy dst=t, src=x.ap(pattern=[[4, 3], [1, 2]], offset=1, vector_offset=idx.ap(pattern=[[2, 3], [1, 1]], offset=1), indirect_dim=0, index_stride=4)
dma_copy dst=g, src=t
dma_copy dst=u, src=x.ap(pattern=[[4, 1], [1, 2]], offset=1, scalar_offset=one, indirect_dim=0)
dma_copy dst=h, src=u
"""
        out, _ = run(prog, rows=np.array([[0, 5], [0, 2], [0, 4]], np.int32))
        self.assertEqual(out["g"].tolist(), [[21, 22], [9, 10], [17, 18]])
        self.assertEqual(out["h"].tolist(), [[13, 14]])


class TensorIndirection(unittest.TestCase):
    """tensor_copy with .indirect() views (S1.7), values by hand."""

    def test_gather_and_scatter(self):
        # x row p is 10p + [0..7]; columns gathered at 2 + 2*idx[i] of rows 0..15 (k = 1: idx[i, 0])
        prog = """
.arch trn3
.hbm x f32 [16, 8] input = iota
.hbm cols i32 [16, 1] input
.hbm g f32 [16, 3] output
.hbm s f32 [16, 8] output
.sbuf xt f32 [16, 8]
.sbuf idx i32 [16, 1]
.sbuf gt f32 [16, 3]
.sbuf st f32 [16, 8]
dma_copy dst=xt, src=x
dma_copy dst=idx, src=cols
tensor_copy dst=gt, src=xt.ap(pattern=[[8, 16], [2, 3]], offset=2, indirect=idx)
dma_copy dst=g, src=gt
memset dst=st, value=0
tensor_copy dst=st.ap(pattern=[[8, 16], [1, 3]], offset=0, indirect=idx), src=gt
dma_copy dst=s, src=st
"""
        cols = np.array([[2], [0], [1]] + [[0]] * 13, np.int32)
        out, _ = run(prog, cols=cols)
        rows = 8 * np.arange(16)[:, None]
        self.assertEqual(out["g"].tolist(), (rows + [6, 2, 4]).tolist())
        scattered = np.zeros((16, 8))
        scattered[:, [2, 0, 1]] = rows + [6, 2, 4]
        self.assertEqual(out["s"].tolist(), scattered.tolist())

    def test_tensor_tensor_and_tensor_scalar(self):
        # x row p is 8p + [0..7]; tensor_tensor gathers data1 at columns idx (3, 0, 5)
        # and adds 100; tensor_scalar doubles that and scatters it to columns 3, 0, 5
        prog = """
.arch trn3
.hbm x f32 [16, 8] input = iota
.hbm cols i32 [16, 1] input
.hbm g f32 [16, 3] output
.hbm s f32 [16, 8] output
.sbuf xt f32 [16, 8]
.sbuf idx i32 [16, 1]
.sbuf ht f32 [16, 3]
.sbuf gt f32 [16, 3]
.sbuf st f32 [16, 8]
dma_copy dst=xt, src=x
dma_copy dst=idx, src=cols
memset dst=ht, value=100
tensor_tensor dst=gt, data1=xt.ap(pattern=[[8, 16], [1, 3]], offset=0, indirect=idx), data2=ht, op=add
dma_copy dst=g, src=gt
memset dst=st, value=-1
tensor_scalar dst=st.ap(pattern=[[8, 16], [1, 3]], offset=0, indirect=idx), data=gt, op0=multiply, operand0=2.0
dma_copy dst=s, src=st
"""
        cols = np.array([[3], [0], [5]] + [[0]] * 13, np.int32)
        out, _ = run(prog, cols=cols)
        rows = 8 * np.arange(16)[:, None]
        self.assertEqual(out["g"].tolist(), (rows + [103, 100, 105]).tolist())
        scattered = np.full((16, 8), -1.0)
        scattered[:, [3, 0, 5]] = 2 * (rows + [103, 100, 105])
        self.assertEqual(out["s"].tolist(), scattered.tolist())


class Nki06Signatures(unittest.TestCase):
    """iota's pattern form and tensor_reduce's axis, values from NKI 0.6's docstrings by hand."""

    def test_iota_pattern(self):
        out, _ = run(".hbm y i32 [2, 6] output\n.sbuf t i32 [2, 6]\n"
                     "iota dst=t, pattern=[[10, 2], [-1, 3]], offset=5, channel_multiplier=100\ndma_copy dst=y, src=t\n")
        row = np.array([0, -1, -2, 10, 9, 8])
        np.testing.assert_array_equal(out["y"], np.stack([5 + row, 105 + row]))

    def test_iota_pattern_wraps_in_int32_then_saturates(self):  # S7, S2.3
        out, _ = run(".hbm y u8 [1, 4] output\n.hbm w i32 [2, 1] output\n.sbuf t u8 [1, 4]\n.sbuf v i32 [2, 1]\n"
                     "iota dst=t, pattern=[[256, 4]], offset=-2\ndma_copy dst=y, src=t\n"
                     "iota dst=v, pattern=[[0, 1]], offset=2147483647, channel_multiplier=1\ndma_copy dst=w, src=v\n")
        np.testing.assert_array_equal(out["y"], [[0, 254, 255, 255]])
        np.testing.assert_array_equal(out["w"], [[2147483647], [-2147483648]])

    def test_tensor_reduce_axis(self):
        x = np.arange(2 * 2 * 3, dtype=np.float32).reshape(2, 6)
        out, _ = run(".hbm x f32 [2, 6] input\n.hbm y f32 [2, 2] output\n.hbm z f32 [2, 1] output\n"
                     ".sbuf d f32 [2, 2, 3]\n.sbuf r f32 [2, 2, 1]\n.sbuf c f32 [2, 1]\n"
                     "dma_copy dst=d, src=x\ntensor_reduce dst=r, data=d, op=add, axis=[-1], keepdims=true\n"
                     "tensor_reduce dst=c, data=d, op=max, axis=[1, 2], negate=true\n"
                     "dma_copy dst=y, src=r\ndma_copy dst=z, src=c\n", x=x)
        np.testing.assert_array_equal(out["y"], x.reshape(2, 2, 3).sum(axis=2))
        np.testing.assert_array_equal(out["z"], -x.max(axis=1, keepdims=True))


class StrictHazards(unittest.TestCase):
    """The first hazard `nisa run --strict` must fault on (S1.1, S1.3, S3, S5), by line."""

    def hazard_line(self, body):
        head = ".hbm r f32 [4, 1] output\n.sbuf t f32 [4, 2]\n.sbuf o f32 [4, 2]\n.sbuf rr f32 [4, 1]\n"
        _, machine = run(head + body)
        return machine.hazard[0] if machine.hazard else None

    def test_bytes_never_written(self):  # S1.1
        self.assertEqual(self.hazard_line("memset dst=t[0:4, 0:1], value=1\n"
                                          "tensor_scalar dst=o, data=t, op0=add, operand0=1.0\n"), 6)
        self.assertIsNone(self.hazard_line("memset dst=t[0:4, 0:1], value=1\n"
                                           "dma_copy dst=o[0:4, 0:1], src=t[0:4, 0:1]\n"))

    def test_scalar_lanes_never_reset(self):  # S1.3: both accumulators
        self.assertEqual(self.hazard_line("memset dst=t, value=1\n"
                                          "activation dst=o, op=copy, data=t, reduce_res=rr\n"), 6)
        self.assertIsNone(self.hazard_line("memset dst=t, value=1\n"
                                           "activation dst=o, op=copy, data=t, reduce_cmd=reset\n"
                                           "activation dst=o, op=copy, data=t, reduce_op=add, reduce_cmd=reduce, "
                                           "reduce_res=rr\n"))

    def test_vector_lanes_after_idle(self):  # S3
        rs = "range_select dst=o, on_true_tile=t, comp_op0=less, comp_op1=less, bound0=rr, bound1=rr"
        body = f"memset dst=t, value=1\nmemset dst=rr, value=0\n{rs}, reduce_cmd=reset_reduce\n{rs}\n"
        self.assertEqual(self.hazard_line(body + f"{rs}, reduce_cmd=reduce\n"), 9)
        self.assertIsNone(self.hazard_line(body + f"{rs}, reduce_cmd=reset_reduce\n"))

    def test_activation_input_ranges(self):  # S5
        self.assertEqual(self.hazard_line("memset dst=t, value=-1\nactivation dst=o, op=sqrt, data=t\n"), 6)
        self.assertEqual(self.hazard_line("memset dst=t, value=3.2\nactivation dst=o, op=sin, data=t\n"), 6)
        self.assertIsNone(self.hazard_line("memset dst=t, value=3.1\nactivation dst=o, op=sin, data=t\n"))


class StatisticsAndSelection(unittest.TestCase):
    """S4.30-S4.36: NKI's docstring examples and the model's stated choices, by hand."""

    def test_bn_stats_then_bn_aggr(self):  # S4.30, S4.31: [1, 2, 3, 4, 5]
        text = (".hbm x f32 [1, 5] input\n.hbm s f32 [1, 6] output\n.hbm mv f32 [1, 2] output\n"
                ".sbuf t f32 [1, 5]\n.sbuf st f32 [1, 6]\n.sbuf a f32 [1, 2]\n"
                "dma_copy dst=t, src=x\nbn_stats dst=st, data=t\nbn_aggr dst=a, data=st\n"
                "dma_copy dst=s, src=st\ndma_copy dst=mv, src=a\n")
        out, _ = run(text, x=np.array([[1, 2, 3, 4, 5]], dtype=np.float32))
        np.testing.assert_array_equal(out["s"], [[3, 3, 8, 2, 3, 2]])
        np.testing.assert_array_equal(out["mv"], [[3, 2]])

    def test_match_replace8_docstring_duplicates(self):  # S4.34
        text = (".hbm d f32 [1, 11] input\n.hbm v f32 [1, 8] input\n.hbm i u32 [1, 8] output\n"
                ".hbm j u32 [1, 8] output\n.sbuf td f32 [1, 11]\n.sbuf tv f32 [1, 8]\n.sbuf ti u32 [1, 8]\n"
                ".sbuf tj u32 [1, 8]\n.sbuf to f32 [1, 11]\ndma_copy dst=td, src=d\ndma_copy dst=tv, src=v\n"
                "nc_match_replace8 dst=to, data=td, vals=tv, imm=0.0, dst_idx=ti\n"
                "nc_find_index8 dst=tj, data=td, vals=tv\ndma_copy dst=i, src=ti\ndma_copy dst=j, src=tj\n")
        out, _ = run(text, d=np.array([[1, 2, 3, 4, 8, 8, 8, 8, 8, 8, 8]], dtype=np.float32),
                     v=np.array([[3, 8, 8, 8, 8, 8, 8, 8]], dtype=np.float32))
        np.testing.assert_array_equal(out["i"], [[2, 10, 9, 8, 7, 6, 5, 4]])
        np.testing.assert_array_equal(out["j"], [[2, 4, 5, 6, 7, 8, 9, 10]])  # ascending (S4.33)

    def test_sequence_bounds_docstring(self):  # S4.35
        text = (".hbm s i32 [1, 9] input\n.hbm o i32 [1, 2, 9] output\n.sbuf ts i32 [1, 9]\n"
                ".sbuf to i32 [1, 2, 9]\ndma_copy dst=ts, src=s\nsequence_bounds dst=to, segment_ids=ts\n"
                "dma_copy dst=o, src=to\n")
        out, _ = run(text, s=np.array([[0, 1, 1, 2, 2, 2, 0, 3, 3]], dtype=np.int32))
        np.testing.assert_array_equal(out["o"], [[[9, 1, 1, 3, 3, 3, 9, 7, 7], [-1, 3, 3, 6, 6, 6, -1, 9, 9]]])

    def test_max8_nan_first(self):  # S4.32: NaN ranks above +inf, ties kept in order
        text = (".hbm x f32 [1, 10] input\n.hbm m f32 [1, 8] output\n.sbuf t f32 [1, 10]\n.sbuf tm f32 [1, 8]\n"
                "dma_copy dst=t, src=x\nmax8 dst=tm, src=t\ndma_copy dst=m, src=tm\n")
        out, _ = run(text, x=np.array([[1, np.nan, np.inf, 2, 2, -5, 0, 3, -1, 4]], dtype=np.float32))
        np.testing.assert_array_equal(out["m"], [[np.nan, np.inf, 4, 3, 2, 2, 1, 0]])

    def test_topk_snake(self):  # S4.36: element e at partition e % 16, column e // 16
        text = (".nki 0.6\n.hbm x bf16 [16, 3] input\n.hbm v bf16 [16, 2] output\n.hbm i u32 [16, 2] output\n"
                ".sbuf b bf16 [16, 3]\n.sbuf tv bf16 [16, 2]\n.sbuf ti u32 [16, 2]\ndma_copy dst=b, src=x\n"
                "topk val_dst=tv, idx_dst=ti, src=b, n=40\ndma_copy dst=v, src=tv\ndma_copy dst=i, src=ti\n")
        x = np.zeros((16, 3), dtype=np.float32)
        x[5, 1] = 7      # snake element 16 + 5 = 21
        x[3, 2] = 9      # snake element 32 + 3 = 35
        x[9, 2] = 11     # snake element 41: beyond n = 40
        out, _ = run(text, x=x)
        np.testing.assert_array_equal(out["v"], np.tile([[7, 9]], (16, 1)))  # ascending
        np.testing.assert_array_equal(out["i"], np.tile([[21, 35]], (16, 1)))

    def test_topk_snake_07(self):  # S4.36, NKI 0.7: result j at partition j % 16, column j // 16
        text = (".nki 0.7\n.hbm x bf16 [16, 3] input\n.hbm v bf16 [16, 2] output\n.hbm i u32 [16, 2] output\n"
                ".sbuf b bf16 [16, 3]\n.sbuf tv bf16 [16, 2]\n.sbuf ti u32 [16, 2]\ndma_copy dst=b, src=x\n"
                "memset dst=tv, value=5.0\nmemset dst=ti, value=3\n"
                "topk val_dst=tv, idx_dst=ti, src=b, n=40, sorted={}\ndma_copy dst=v, src=tv\ndma_copy dst=i, src=ti\n")
        x = np.zeros((16, 3), dtype=np.float32)
        x[5, 1] = 7      # snake element 21
        x[3, 2] = 9      # snake element 35
        x[9, 2] = 11     # snake element 41: beyond n = 40
        # K = 2 results in column 0 (partitions 0 and 1; zero on 2..15); column 1 keeps its 5.0 and 3
        for sorted_, first, second in (("true", (9, 35), (7, 21)), ("false", (7, 21), (9, 35))):
            out, _ = run(text.format(sorted_), x=x)
            v = np.zeros((16, 2), dtype=np.float32)
            i = np.zeros((16, 2), dtype=np.uint32)
            v[:, 1], i[:, 1] = 5, 3
            v[0, 0], i[0, 0] = first
            v[1, 0], i[1, 0] = second
            np.testing.assert_array_equal(out["v"], v)
            np.testing.assert_array_equal(out["i"], i)


class TwoCores(unittest.TestCase):
    """S16: the model of two cores (multicore.py) on hand-made exchanges."""
    SWAP = """
.arch trn2
.cores 2
.hbm  a f32 [2, 3] input
.hbm  y f32 [4, 3] output
.rept K, 2
.core K
.sbuf s f32 [2, 3]
.sbuf r f32 [2, 3]
dma_copy dst=s, src=a
tensor_scalar dst=s, data=s, op0=add, operand0=10 * K
sendrecv src=s, dst=r, send_to_rank=1 - K, recv_from_rank=1 - K, pipe_id=5
dma_copy dst=y[2 * K:2 * K + 2, :], src=r
.endr
"""

    def test_sendrecv_swaps_the_two_sides(self):  # S16.2: dst takes the other core's src
        a = np.arange(6, dtype=np.float32).reshape(2, 3)
        for schedule in ("in_order", 1, 2, 3):
            prog = nki_ref.nasm_reader.read_program(self.SWAP)
            out, state = nki_ref.multicore.run(prog, {"a": a}, schedule=schedule)
            np.testing.assert_array_equal(out["y"], np.concatenate([a + 10, a]))  # core 0 got core 1's a + 10
            self.assertEqual(state.meetings, [("sendrecv", [0, 1], [12, 12])])

    def test_sendrecv_in_place_and_bits(self):  # S16.2: both srcs read before either dst; bits exact
        text = """
.arch trn2
.cores 2
.hbm  a0 f32 [2, 2] input
.hbm  a1 f32 [2, 2] input
.hbm  y  f32 [4, 2] output
.rept K, 2
.core K
.sbuf s f32 [4, 2]
dma_copy dst=s[K * 2:K * 2 + 2, :], src=a0
.rept one, K
dma_copy dst=s[2:4, :], src=a1
.endr
sendrecv src=s[K * 2:K * 2 + 2, :], dst=s[K * 2:K * 2 + 2, :], send_to_rank=1 - K, recv_from_rank=1 - K, pipe_id=0
dma_copy dst=y[K * 2:K * 2 + 2, :], src=s[K * 2:K * 2 + 2, :]
.endr
"""
        a0 = np.array([[1.5, -0.0], [2.0, 3.0]], dtype=np.float32)
        a1 = np.array([[0x7FC01234, 0x80000000], [0xFF800000, 0x00000001]], dtype=np.uint32).view(np.float32)
        out, _ = run(text, a0=a0, a1=a1)
        # Core 0 swapped its a0 for core 1's a1 (a NaN payload, -0, -inf, a subnormal), core 1 the other way.
        np.testing.assert_array_equal(out["y"].view(np.uint32), np.concatenate([a1, a0]).view(np.uint32))

    def test_barrier_orders_a_hand_over(self):  # S16.3: written before, read after
        text = """
.arch trn2
.cores 2
.hbm  a f32 [4, 4] input
.hbm  h f32 [4, 4] scratch
.hbm  y f32 [4, 4] output
.core 0
.sbuf t f32 [4, 4]
dma_copy dst=t, src=a
tensor_scalar dst=t, data=t, op0=multiply, operand0=3.0
dma_copy dst=h, src=t
core_barrier data=h, cores=[0, 1]
.core 1
.sbuf u f32 [4, 4]
core_barrier data=h, cores=[1, 0]
dma_copy dst=u, src=h
dma_copy dst=y, src=u
"""
        a = np.arange(16, dtype=np.float32).reshape(4, 4)
        for schedule in ("in_order", 7, 8):
            out, _ = nki_ref.multicore.run(nki_ref.nasm_reader.read_program(text), {"a": a}, schedule=schedule)
            np.testing.assert_array_equal(out["y"], a * 3)
        # Without the barrier core 1 may read h before core 0 wrote it: in order (core 0 first) it
        # sees 3a; under the random schedule of seed 0, core 1 reads first and sees zeros.
        racy = text.replace("core_barrier data=h, cores=[0, 1]\n", "").replace("core_barrier data=h, cores=[1, 0]\n", "")
        for schedule, want in (("in_order", a * 3), (0, np.zeros_like(a))):
            out, _ = nki_ref.multicore.run(nki_ref.nasm_reader.read_program(racy), {"a": a}, schedule=schedule)
            np.testing.assert_array_equal(out["y"], want)

    def test_a_program_without_sections_is_every_cores(self):  # LANGUAGE.md 2.7: `core` is its number
        text = """
.hbm  a f32 [4, 2] input
.hbm  y f32 [4, 2] output
.sbuf t f32 [2, 2]
dma_copy dst=t, src=a[core * 2:core * 2 + 2, :]
tensor_scalar dst=t, data=t, op0=add, operand0=100 * core
dma_copy dst=y[core * 2:core * 2 + 2, :], src=t
"""
        a = np.arange(8, dtype=np.float32).reshape(4, 2)
        for cores, form in ((2, text), (None, ".arch trn2\n.cores 2\n" + text)):
            prog = nki_ref.nasm_reader.read_program(form, cores=cores)
            self.assertEqual((prog.cores, len(prog.sections), sorted(prog.decls)), (2, 2, ["a", "y"]))
            self.assertEqual([d.core for d in prog.sections[1].decls.values()], [None, None, 1])
            out, _ = nki_ref.multicore.run(prog, {"a": a})
            np.testing.assert_array_equal(out["y"], a + [[0], [0], [100], [100]])
        one = nki_ref.nasm_reader.read_program(text, cores=1)  # `core` is 0
        self.assertEqual((one.cores, len(one.instrs)), (1, 3))

    def test_meetings_that_cannot_happen(self):  # S16.2, S16.3: an error, never a hang
        one_sided = self.SWAP.replace(".rept K, 2", ".rept K, 1")
        with self.assertRaisesRegex(nki_ref.multicore.ModelError, "core 0 at sendrecv .*core 1 has finished"):
            run(one_sided, a=np.zeros((2, 3), np.float32))
        other_pipe = self.SWAP.replace("pipe_id=5", "pipe_id=5 + K")
        with self.assertRaisesRegex(nki_ref.multicore.ModelError, "pipe_id 5 and 6"):
            run(other_pipe, a=np.zeros((2, 3), np.float32))


class SequencerRegistersAndLoops(unittest.TestCase):
    """SEMANTICS S17: int32 registers, runtime loops executed (not unrolled),
    scalar_offset=REG; every expected value worked out by hand from the rules."""

    @staticmethod
    def walk(text):
        """The positions the model runs, in order, and the machine after them."""
        import ref_loops
        prog = nki_ref.nasm_reader.read_program(text)
        m = nki_ref.Machine(prog)
        m.load_inputs({})
        order = []
        for position in ref_loops.Walk(prog.instrs, m):
            order.append(position)
            nki_ref.SEMANTICS[prog.instrs[position].mnemonic](m, prog.instrs[position].ops)
        return order, m

    def test_register_op_wraps_in_int32(self):  # S17.1: NKI 0.7 NkiScalar, two's complement
        out, m = run("""
.hbm y i32 [1, 5] output
.reg a
.reg b
register_move dst=a, src=2147483647
register_op dst=b, src0=a, src1=1, op=add
register_store dst=y[0, 0], src=b
register_op dst=b, src0=-2147483648, src1=1, op=subtract
register_store dst=y[0, 1], src=b
register_op dst=b, src0=65536, src1=65536, op=multiply
register_store dst=y[0, 2], src=b
register_op dst=b, src0=65537, src1=65537, op=mul
register_store dst=y[0, 3], src=b
register_op dst=a, src0=a, src1=a, op=sub
register_store dst=y[0, 4], src=a
""")
        # 2^31 - 1 + 1 = -2^31; -2^31 - 1 = 2^31 - 1; 2^32 = 0; (2^16 + 1)^2 = 2^32 + 2^17 + 1 = 131073
        np.testing.assert_array_equal(out["y"], [[-2 ** 31, 2 ** 31 - 1, 0, 131073, 0]])
        self.assertEqual(m.registers, {"a": 0, "b": 131073})

    def test_register_load_and_store_move_one_int32_element(self):  # S17.1
        text = """
.hbm x i32 [2, 3] input
.hbm y i32 [1, 2] output
.sbuf s i32 [4, 2]
.reg r
register_load dst=r, src=x[1, 2]
register_store dst=s[3, 1], src=r
register_load dst=r, src=s.ap(pattern=[[2, 1], [1, 1]], offset=7)
register_op dst=r, src0=r, src1=-7, op=add
register_store dst=y[0, 1], src=r
dma_copy dst=y[0:1, 0:1], src=s[3:4, 1:2]
"""
        out, _ = run(text, x=np.array([[0, 0, 0], [0, 0, -12345]], np.int32))
        np.testing.assert_array_equal(out["y"], [[-12345, -12352]])

    def test_fori_runs_its_body_per_value_of_range(self):  # S17.2: range(lower, upper, step)
        text = """
.hbm y i32 [1, 8] output
.sbuf s i32 [1, 1]
.reg i
.reg hi
register_move dst=hi, src=6
fori_loop var=i, lower=1, upper=hi, step=2
register_store dst=s[0, 0], src=i
dma_copy dst=y.ap(pattern=[[8, 1], [1, 1]], offset=0, scalar_offset=i, indirect_dim=1), src=s
end_loop
"""
        order, m = self.walk(text)
        # positions: 0 move, 1 fori, then (2 store, 3 dma, 4 end_loop) for i = 1, 3, 5
        self.assertEqual(order, [0, 1, 2, 3, 4, 2, 3, 4, 2, 3, 4])
        out, _ = run(text)
        np.testing.assert_array_equal(out["y"], [[0, 1, 0, 3, 0, 5, 0, 0]])
        self.assertEqual(m.registers["i"], 5)  # the last iteration's value

    def test_fori_bounds_are_read_once_and_var_is_reset_each_iteration(self):  # S17.2
        out, m = run("""
.hbm y i32 [1, 1] output
.reg i
.reg n
.reg count
register_move dst=n, src=3
register_move dst=count, src=0
fori_loop var=i, upper=n
register_op dst=count, src0=count, src1=1, op=add
register_move dst=n, src=100
register_move dst=i, src=-50
end_loop
register_store dst=y, src=count
""")
        # upper read once (3): three iterations although n becomes 100, and i = -50 in the
        # body does not move the iterations; after the loop i holds what the body wrote
        np.testing.assert_array_equal(out["y"], [[3]])
        self.assertEqual(m.registers["i"], -50)

    def test_empty_and_negative_trip_counts(self):  # S17.2
        order, m = self.walk("""
.hbm y i32 [1, 1] output
.reg i
fori_loop var=i, lower=4, upper=4
register_store dst=y, src=i
end_loop
register_move dst=i, src=1
""")
        self.assertEqual(order, [0, 3])  # no iteration: neither the body nor end_loop runs
        self.assertEqual(m.registers, {"i": 1})
        with self.assertRaisesRegex(nki_ref.Fault, r"line 4: fori_loop: upper 2 is below lower 5"):
            run("""
.hbm y i32 [1, 1] output
.reg i
fori_loop var=i, lower=5, upper=2
register_store dst=y, src=i
end_loop
""")

    def test_a_register_set_only_in_a_loop_that_never_ran(self):  # S17.1: a fault at run time
        with self.assertRaisesRegex(nki_ref.Fault, r"line 8: register_store: register 'v' is read before anything set it"):
            run("""
.hbm y i32 [1, 1] output
.reg i
.reg v
fori_loop var=i, upper=0
register_move dst=v, src=7
end_loop
register_store dst=y, src=v
""")

    def test_while_tests_cond_before_each_iteration(self):  # S17.2
        text = """
.hbm y i32 [1, 2] output
.reg c
.reg k
register_move dst=c, src=COUNT
register_move dst=k, src=0
while_loop cond=c
register_op dst=c, src0=c, src1=1, op=subtract
register_op dst=k, src0=k, src1=10, op=add
end_loop
register_store dst=y[0, 0], src=c
register_store dst=y[0, 1], src=k
"""
        order, _ = self.walk(text.replace("COUNT", "2"))
        self.assertEqual(order, [0, 1, 2, 3, 4, 5, 3, 4, 5, 6, 7])
        order, _ = self.walk(text.replace("COUNT", "0"))
        self.assertEqual(order, [0, 1, 2, 6, 7])  # cond 0: the body and end_loop never run
        out, _ = run(text.replace("COUNT", "3"))
        np.testing.assert_array_equal(out["y"], [[0, 30]])

    def test_nested_loops(self):  # S17.2: end_loop closes the innermost loop
        text = """
.hbm y i32 [3, 4] output
.reg i
.reg j
.reg v
fori_loop var=i, upper=3
fori_loop var=j, lower=i, upper=4
register_op dst=v, src0=i, src1=10, op=multiply
register_op dst=v, src0=v, src1=j, op=add
register_op dst=j, src0=j, src1=i, op=multiply
register_store dst=y[0, 0], src=v
end_loop
end_loop
"""
        order, _ = self.walk(text)
        # i = 0: j = 0..3 (4 passes); i = 1: j = 1..3; i = 2: j = 2, 3
        inner = [2, 3, 4, 5, 6]
        expected = [0] + [1] + inner * 4 + [7] + [1] + inner * 3 + [7] + [1] + inner * 2 + [7]
        self.assertEqual(order, expected)

    def test_scalar_offset_register_moves_a_dma_view(self):  # S17.3
        x = np.arange(24, dtype=np.float32).reshape(6, 4)
        out, _ = run("""
.hbm x f32 [6, 4] input
.hbm y f32 [6, 4] output
.sbuf t f32 [2, 4]
.reg i
.reg row
fori_loop var=i, upper=3
register_op dst=row, src0=i, src1=2, op=multiply
dma_copy dst=t, src=x.ap(pattern=[[4, 2], [1, 4]], offset=0, scalar_offset=row, indirect_dim=0)
tensor_scalar dst=t, data=t, op0=multiply, operand0=-1.0
register_op dst=row, src0=5, src1=row, op=subtract
dma_copy dst=y.ap(pattern=[[4, 1], [1, 4]], offset=0, scalar_offset=row, indirect_dim=0), src=t[0:1]
register_op dst=row, src0=row, src1=4, op=multiply
dma_copy dst=y.ap(pattern=[[4, 1], [1, 4]], offset=-4, scalar_offset=row, indirect_dim=0, index_stride=1), src=t[1:2]
end_loop
""", x=x)
        # iteration i: rows 2i, 2i+1 of x negated; row 2i to y row 5 - 2i, row 2i+1 to y row
        # (5 - 2i) - 1 (element offset 4 (5 - 2i) - 4): y is x negated, rows reversed
        np.testing.assert_array_equal(out["y"], -x[::-1])


class GeneratedPrograms(unittest.TestCase):
    def test_generated_programs_respect_the_spec(self):  # S1.5, isa-spec operand rules
        import gen_programs
        import nasm_reader
        import spec_lint
        for k in range(60):
            text, inputs, expected, _ = gen_programs.generate(gen_programs.program_seed(77, k))
            self.assertEqual(spec_lint.lint(nasm_reader.read_program(text)), [], text)
            self.assertTrue(expected, "every program dumps outputs")

    def test_generation_is_deterministic(self):
        import gen_programs
        a = gen_programs.generate(12345)
        b = gen_programs.generate(12345)
        self.assertEqual(a[0], b[0])
        for name in a[2]:
            np.testing.assert_array_equal(a[2][name], b[2][name])


if __name__ == "__main__":
    unittest.main()
