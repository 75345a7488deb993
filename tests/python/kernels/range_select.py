"""Kernels of the seed instruction range_select, in NKI 0.6 form.

nki_range_select_example and nki_range_select_chaining are the two kernels
of NKI's public test nki/test/test_nki_isa_range_select.py (aws-neuron-sdk),
with dst= instead of the returned tile. causal_row_max is a causal-attention
row maximum: row p of a score tile keeps the columns j <= p (bounds made on
chip with iota), masked scores and the row maxima come back."""
import nki
import nki.isa as nisa
import nki.language as nl
import numpy as np


@nki.jit(platform_target="trn2")
def nki_range_select_example(on_true, bound0, bound1, compare_op0, compare_op1, range_start):
  select_res = nl.ndarray(on_true.shape, dtype=on_true.dtype, buffer=nl.hbm)
  reduce_result = nl.ndarray((on_true.shape[0], 1), dtype=on_true.dtype, buffer=nl.hbm)

  on_true_tile = nl.load(on_true[...])
  bound0_tile = nl.load(bound0[...])
  bound1_tile = nl.load(bound1[...])

  reduce_res_tile = nl.ndarray((on_true.shape[0], 1), dtype=on_true.dtype, buffer=nl.sbuf)
  result = nl.ndarray(on_true.shape, dtype=on_true.dtype, buffer=nl.sbuf)

  nisa.range_select(
    dst=result,
    on_true_tile=on_true_tile,
    comp_op0=compare_op0,
    comp_op1=compare_op1,
    bound0=bound0_tile,
    bound1=bound1_tile,
    reduce_cmd=nisa.reduce_cmd.reset_reduce,
    reduce_res=reduce_res_tile,
    reduce_op=np.max,
    range_start=range_start,
    on_false_value=nl.fp32.min,
  )

  nl.store(select_res[...], value=result[...])
  nl.store(reduce_result[...], value=reduce_res_tile[...])
  return select_res, reduce_result


@nki.jit(platform_target="trn2")
def nki_range_select_chaining(on_true, bound0, bound1, compare_op0, compare_op1, range_start):
  select_res = nl.ndarray(on_true.shape, dtype=np.float32, buffer=nl.hbm)
  reduce_result = nl.ndarray((on_true.shape[0], 1), dtype=np.float32, buffer=nl.hbm)

  on_true_tile = nl.load(on_true[...])
  bound0_tile = nl.load(bound0[...])
  bound1_tile = nl.load(bound1[...])

  reduce_res_sbuf = nl.ndarray((on_true.shape[0], 1), dtype=np.float32, buffer=nl.sbuf)
  result_sbuf = nl.ndarray(on_true.shape, dtype=np.float32, buffer=nl.sbuf)

  # reset the accumulator and start the reduction (no reduce_res yet)
  nisa.range_select(dst=result_sbuf, on_true_tile=on_true_tile, comp_op0=compare_op0, comp_op1=compare_op1,
                    bound0=bound0_tile, bound1=bound1_tile, reduce_cmd=nisa.reduce_cmd.reset_reduce,
                    reduce_op=np.max, range_start=range_start, on_false_value=nl.fp32.min)

  ones = nl.full(on_true.shape, fill_value=1, dtype=np.float32, buffer=nl.sbuf)
  iteration_step_size = on_true_tile.shape[0]

  for i in range(1, 2):
    on_true_tile[...] = nl.add(on_true_tile, ones)
    nisa.range_select(dst=result_sbuf, on_true_tile=on_true_tile, comp_op0=compare_op0, comp_op1=compare_op1,
                      bound0=bound0_tile, bound1=bound1_tile, reduce_cmd=nisa.reduce_cmd.reduce,
                      reduce_op=np.max, range_start=range_start + (i * iteration_step_size),
                      on_false_value=nl.fp32.min)

  range_start = range_start + (2 * iteration_step_size)
  # the last one writes the accumulated maximum out
  on_true_tile[...] = nl.add(on_true_tile, ones)
  nisa.range_select(dst=result_sbuf, on_true_tile=on_true_tile, comp_op0=compare_op0, comp_op1=compare_op1,
                    bound0=bound0_tile, bound1=bound1_tile, reduce_cmd=nisa.reduce_cmd.reduce,
                    reduce_res=reduce_res_sbuf[...], reduce_op=np.max, range_start=range_start,
                    on_false_value=nl.fp32.min)

  nl.store(select_res[...], value=result_sbuf[...])
  nl.store(reduce_result[...], value=reduce_res_sbuf[...])
  return select_res, reduce_result


@nki.jit
def causal_row_max(scores):
  """scores [P, N] float32: masked[p, j] = scores[p, j] if j <= p else fp32.min; row_max[p] = max_j masked[p, j]."""
  P, N = scores.shape
  masked = nl.ndarray((P, N), dtype=nl.float32, buffer=nl.shared_hbm, name="masked")
  row_max = nl.ndarray((P, 1), dtype=nl.float32, buffer=nl.shared_hbm, name="row_max")

  s_tile = nl.ndarray((P, N), dtype=nl.float32, buffer=nl.sbuf)
  nisa.dma_copy(dst=s_tile, src=scores)

  lo = nl.zeros((P, 1), dtype=nl.float32)
  hi = nl.ndarray((P, 1), dtype=nl.float32, buffer=nl.sbuf)
  nisa.iota(dst=hi, pattern=[[0, 1]], offset=1, channel_multiplier=1)  # hi[p] = p + 1

  out_tile = nl.ndarray((P, N), dtype=nl.float32, buffer=nl.sbuf)
  max_tile = nl.ndarray((P, 1), dtype=nl.float32, buffer=nl.sbuf)
  nisa.range_select(dst=out_tile, on_true_tile=s_tile, comp_op0=nl.greater_equal, comp_op1=nl.less,
                    bound0=lo, bound1=hi, reduce_res=max_tile, reduce_op=nl.maximum)

  nisa.dma_copy(dst=masked, src=out_tile)
  nisa.dma_copy(dst=row_max, src=max_tile)
  return masked, row_max
