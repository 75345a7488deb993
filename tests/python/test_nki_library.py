"""nki-library kernels run unchanged on nisa (issue 27).

With NKI_LIBRARY=/path/to/nki-library (a checkout of aws-neuron/nki-library),
each kernel below is imported from the checkout's src/ as published, called as
its own test calls it (`nki.cpu_simulate(kernel)[lnc](**inputs)`, the
test's parameters, input generation and tolerances; LNC=1 where the test
allows it) and compared with our NumPy port of the test's torch reference
(nki_library_refs.py). NKI_SDK=/path/to/aws-neuron-sdk adds the SDK's fused
mamba kernels, called as their benchmark calls them. Without the variables
every case is skipped; nothing is fetched. bf16 cases need ml_dtypes,
rotational topk needs scipy (its host-side constants).

NKI_LIBRARY_REPORT=FILE appends one JSON line per case (kernel, case, dtype,
result, detail): scripts/run-nki-library prints them as a table.
"""
import importlib
import json
import os
import sys
from dataclasses import dataclass, field

import numpy as np
import pytest

import nisa
import nisa.nki

import nki_library_refs as refs

LIBRARY = os.environ.get("NKI_LIBRARY")
SDK = os.environ.get("NKI_SDK")
REPORT = os.environ.get("NKI_LIBRARY_REPORT")


@dataclass
class Case:
    kernel: str  # the library's kernel, as the issue names it
    name: str
    dtype: str
    run: object  # () -> [(output name, actual, expected, compare)]
    lnc: int = 1
    needs: tuple = ()  # Python modules the kernel's own files import
    source: str = "library"  # "library" (NKI_LIBRARY) or "sdk" (NKI_SDK)
    note: str = ""
    marks: list = field(default_factory=list)

    @property
    def id(self):
        return f"{self.kernel}-{self.name}-{self.dtype}"


# --- setup -------------------------------------------------------------------
def _load_library():
    src = os.path.join(LIBRARY, "src")
    if not os.path.isdir(os.path.join(src, "nkilib_src", "nkilib")):
        pytest.fail(f"NKI_LIBRARY={LIBRARY}: no src/nkilib_src/nkilib there (expected a checkout of "
                    "aws-neuron/nki-library)")
    if src not in sys.path:
        sys.path.insert(0, src)
    nisa.nki.install()
    return importlib.import_module("nki")


def _load_sdk_mamba():
    folder = os.path.join(SDK, "nki", "examples", "fused_mamba")
    if not os.path.isfile(os.path.join(folder, "mamba_nki_kernels.py")):
        pytest.fail(f"NKI_SDK={SDK}: no nki/examples/fused_mamba/mamba_nki_kernels.py there")
    if folder not in sys.path:
        sys.path.insert(0, folder)
    nisa.nki.install()
    return importlib.import_module("mamba_nki_kernels")


def lib(module):
    """A module of the checkout's nkilib, imported unchanged."""
    return importlib.import_module(f"nkilib_src.nkilib.{module}")


def simulate(kernel, lnc, **inputs):
    """simulation_setup.simulate_kernel: nki.cpu_simulate(kernel)[lnc](**inputs),
    the result as a list."""
    import nki
    result = nki.cpu_simulate(kernel)[lnc](**inputs)
    if result is None:
        return []
    return list(result) if isinstance(result, (list, tuple)) else [result]


def close(rtol, atol):
    return lambda actual, expected: refs.max_all_close(actual, expected, rtol, atol)


def checks(outputs, expected, compare):
    """The test's OutputValidator: outputs in the order of the golden's keys,
    each read as the golden's dtype."""
    names = list(expected)
    assert len(outputs) == len(names), f"kernel returned {len(outputs)} outputs, the test expects {names}"
    return [(name, np.asarray(out).astype(np.asarray(expected[name]).dtype), expected[name], compare)
            for name, out in zip(names, outputs)]


def dt(name):
    return refs.numpy_dtype(name)


def copies(inputs):
    """Arrays the kernel may write (in-place kernels) are passed as copies, so
    that the references see the inputs as generated."""
    return {k: v.copy() if isinstance(v, np.ndarray) else v for k, v in inputs.items()}


# --- core/embeddings/rope_hf (test_rope_hf.py, test_rope_hf_lnc / _cache) -----
def rope_hf_case(b, qh, kvh, s, d, dtype, backward, lnc=1, packed=False):
    def run():
        np.random.seed(42)
        q = np.random.randn(b, qh, s, d).astype(dt(dtype))
        k = np.random.randn(b, kvh, s, d).astype(dt(dtype))
        inputs = {"q": q, "k": k, "q_out": np.zeros_like(q), "k_out": np.zeros_like(k), "backward": backward}
        if packed:
            inputs["rope_cache"] = np.random.randn(s, d * 2).astype(dt(dtype))
            cos, sin = inputs["rope_cache"][None, :, :d], inputs["rope_cache"][None, :, d:]
        else:
            inputs["cos"] = cos = np.random.randn(b, s, d).astype(dt(dtype))
            inputs["sin"] = sin = np.random.randn(b, s, d).astype(dt(dtype))
        outputs = simulate(lib("core.embeddings.rope_hf").rope_hf, lnc, **copies(inputs))
        expected = refs.rope_hf(q, k, cos, sin, backward, lower_precision=True)
        return checks(outputs, expected, close(1e-6, 1e-6))
    name = f"b{b}_qh{qh}_kvh{kvh}_s{s}_d{d}" + ("_backward" if backward else "") + ("_cache" if packed else "")
    return Case("rope_hf", name, dtype, run, lnc=lnc)


# --- core/embeddings/rope (test_rope.py, test_rope_fast) ----------------------
def rope_case(d_head, b, n_heads, s, contiguous, relayout):
    def run():
        x_in, cos, sin = refs.gaussian_tensors([((d_head, b, n_heads, s), dt("bfloat16")),
                                                ((d_head // 2, b, s), dt("bfloat16")),
                                                ((d_head // 2, b, s), dt("bfloat16"))])
        outputs = simulate(lib("core.embeddings.rope").RoPE, 1, x_in=x_in, cos=cos, sin=sin, lnc_shard=True,
                           contiguous_layout=contiguous, relayout_in_sbuf=relayout)
        return checks(outputs, refs.rope(x_in, cos, sin, contiguous), close(2 ** -7, 1e-3))
    name = f"dh{d_head}_b{b}_h{n_heads}_s{s}" + ("_contig" if contiguous else "_interleaved") + \
           ("_relayout" if relayout else "")
    return Case("rope", name, "bfloat16", run)


# --- core/max cascaded max (test_cascaded_max.py) ----------------------------
def cascaded_max_case(b, s, v, dtype):
    """bf16 rows keep vocab 256 (the sweep's smallest): the kernel carries the
    indices in the input's dtype (ind_buf_float, ind_t: value.dtype), and bf16
    holds integers exactly only up to 256."""
    def run():
        np.random.seed(42)
        x = np.random.randn(b, s, v).astype(dt(dtype))
        outputs = simulate(lib("core.max.cascaded_max").cascaded_max, 1, input_tensor=x)
        return checks(outputs, refs.cascaded_max(x), close(1e-5, 1e-5))
    return Case("cascaded_max", f"b{b}_s{s}_v{v}", dtype, run)


# --- core/cumsum (test_cumsum.py, test_cumsum_fast) --------------------------
def cumsum_case(b, hidden, ndim, s, dtype, lnc=1):
    def run():
        np.random.seed(42)
        x = np.random.randn(*((b, s, hidden) if ndim == 3 else (b, hidden))).astype(dt(dtype))
        outputs = simulate(lib("core.cumsum").cumsum, lnc, x=x)
        return checks(outputs, refs.cumsum(x), close(1e-2 if dtype == "bfloat16" else 1e-3,
                                                      1e-2 if hidden > 5000 else 1e-3))
    note = "" if lnc == 2 else "the test runs LNC=2"
    return Case("cumsum", f"{b}x{s}x{hidden}" if ndim == 3 else f"{b}x{hidden}", dtype, run, lnc=lnc, note=note)


# --- core/subkernels rmsnorm_tkg (test_rmsnorm_tkg.py) -----------------------
def rmsnorm_tkg_case(b, s, h, hidden_actual, hidden_dim_tp, dtype, note="", lnc=1, shard_on_h=False):
    def run():
        np.random.seed(42)
        x = np.random.randn(b, s, h).astype(dt(dtype))
        gamma = np.random.randn(1, h).astype(dt(dtype))
        output = np.zeros((128, b * s, h // 128), dtype=dt(dtype))
        outputs = simulate(lib("core.subkernels.rmsnorm_tkg").rmsnorm_tkg, lnc, input=x, gamma=gamma, output=output,
                           hidden_actual=hidden_actual, hidden_dim_tp=hidden_dim_tp, shard_on_h=shard_on_h)
        # the test's reference: the LNC2 layout at LNC=2 without hidden_dim_tp
        expected = refs.rmsnorm_tkg(x, gamma, hidden_actual, hidden_dim_tp, lnc2_layout=lnc == 2 and not hidden_dim_tp)
        return checks(outputs, expected, close(2e-2, 1e-5))
    name = f"b{b}_s{s}_h{h}" + (f"_ha{hidden_actual}" if hidden_actual else "") + ("_tp" if hidden_dim_tp else "") + \
        ("_shardh" if shard_on_h else "")
    return Case("rmsnorm_tkg", name, dtype, run, lnc=lnc, note=note)


# --- core/subkernels layernorm_tkg (test_layernorm_tkg.py) -------------------
def layernorm_tkg_case(b, s, h, dtype, lnc=1, shard_on_h=False, note=""):
    def run():
        np.random.seed(42)
        x = np.random.randn(b, s, h).astype(dt(dtype))
        gamma = np.random.randn(1, h).astype(dt(dtype))
        output = np.zeros((128, b * s, h // 128), dtype=dt(dtype))
        beta = np.random.randn(1, h).astype(dt(dtype))
        outputs = simulate(lib("core.subkernels.layernorm_tkg").layernorm_tkg, lnc, input=x, gamma=gamma,
                           output=output, beta=beta, shard_on_h=shard_on_h)
        # the test's reference: the LNC2 layout at LNC=2 or with shard_on_h
        expected = refs.layernorm_tkg(x, gamma, beta, lnc2_layout=lnc == 2 or shard_on_h)
        return checks(outputs, expected, close(2e-2, 1e-5))
    return Case("layernorm_tkg", f"b{b}_s{s}_h{h}" + ("_shardh" if shard_on_h else ""), dtype, run, lnc=lnc,
                note=note)


# --- core/subkernels find_nonzero_indices (test_find_nonzero_indices.py) ------
def find_nonzero_case(t, e, top_k, chunk, dtype, start=None, n_cols=None, lnc=1):
    def run():
        x = refs.sparse_input(t, e, top_k, dt(dtype))
        inputs = {"input_tensor": x}
        if start is not None:
            inputs.update(col_start_id=np.array([start]).astype(np.int32), n_cols=n_cols)
        inputs["chunk_size"] = chunk
        outputs = simulate(lib("core.subkernels.find_nonzero_indices").find_nonzero_indices, lnc, **inputs)
        expected = refs.find_nonzero_indices(x, inputs.get("col_start_id"), n_cols)
        return checks(outputs, expected, close(0, 0))
    name = f"t{t}_e{e}_k{top_k}" + (f"_cols{start}+{n_cols}" if start is not None else "") + f"_lnc{lnc}"
    note = "" if lnc == 2 else "the test runs LNC=2; the kernel takes LNC=1 when chunk_size == T"
    return Case("find_nonzero_indices", name, dtype, run, lnc=lnc, note=note)


# --- experimental/loss cross_entropy (test_cross_entropy_forward/backward.py) -
def cross_entropy_inputs(b, t, v, dtype):
    np.random.seed(42)
    logits = np.random.randn(b * t, v).astype(dt(dtype))
    targets = np.random.randint(0, v, size=(b * t,), dtype=np.int32)
    return logits, targets


def cross_entropy_forward_case(b, t, v, dtype, pb, cs, note="", lnc=1):
    def run():
        logits, targets = cross_entropy_inputs(b, t, v, dtype)
        outputs = simulate(lib("experimental.loss").cross_entropy_forward, lnc, logits_hbm=logits,
                           targets_hbm=targets, positions_per_batch=pb, chunk_size=cs, dtype=dtype)
        tol = 1e-2 if dtype == "bfloat16" else 1e-5
        return checks(outputs, refs.cross_entropy_forward(logits, targets, dtype), close(tol, tol))
    return Case("cross_entropy_forward", f"b{b}_t{t}_v{v}_pb{pb}_cs{cs}", dtype, run, lnc=lnc, note=note)


def cross_entropy_backward_case(b, t, v, dtype, pb, cs, reduction, note="", lnc=1):
    def run():
        logits, targets = cross_entropy_inputs(b, t, v, dtype)
        lse = refs.cross_entropy_lse(logits, dtype)
        # the kernel writes the gradients over logits_hbm (inplace=True): it gets a copy
        outputs = simulate(lib("experimental.loss").cross_entropy_backward, lnc, **copies(dict(
            logits_hbm=logits, targets_hbm=targets, lse_state_hbm=lse, reduction=reduction,
            positions_per_batch=pb, chunk_size=cs, dtype=dtype)))
        tol = 1e-2 if dtype == "bfloat16" else 1e-5
        return checks(outputs, refs.cross_entropy_backward(logits, targets, dtype, reduction), close(tol, tol))
    return Case("cross_entropy_backward", f"b{b}_t{t}_v{v}_pb{pb}_cs{cs}_{reduction}", dtype, run, lnc=lnc,
                note=note)


# --- experimental/conv conv1d (test_conv1d.py, test_conv1d_basic) ------------
def conv1d_case(b, c_in, c_out, length, k, stride, pad_l, pad_r, dilation, use_bias, act, dtype):
    def run():
        act_fn = None if act is None else getattr(lib("core.utils.common_types").ActFnType, act)
        shapes = [((b, c_in, length), dt(dtype)), ((k, c_in, c_out), dt(dtype))]
        tensors = refs.gaussian_tensors(shapes + ([((c_out,), dt(dtype))] if use_bias else []))
        x_in, filters, bias = tensors[0], tensors[1], tensors[2] if use_bias else None
        outputs = simulate(lib("experimental.conv.conv1d").conv1d, 1, x_in=x_in, filters=filters, bias=bias,
                           stride=stride, padding=(pad_l, pad_r), dilation=dilation, activation_fn=act_fn,
                           lnc_shard=False)
        activation = {None: None, "SiLU": "silu", "Swish": "silu", "GELU": "gelu",
                      "GELU_Tanh_Approx": "gelu_tanh"}[act]
        tol = 5e-2 if dtype == "bfloat16" else 1e-5
        expected = refs.conv1d(x_in, filters, bias, stride, (pad_l, pad_r), dilation, activation)
        return checks(outputs, expected, close(tol, tol))
    name = f"b{b}_ci{c_in}_co{c_out}_l{length}_k{k}_st{stride}_p{pad_l}-{pad_r}_dil{dilation}" + \
           ("_bias" if use_bias else "") + (f"_{act}" if act else "")
    return Case("conv1d", name, dtype, run)


# --- core/attention attention_cte (test_attention_cte.py, no-CP unit rows) ----
def attention_cte_case(bs, s_kv, s_q, d, scale, dtype, causal, tp_q, tp_out, note="", lnc=1):
    def run():
        q_shape = (bs, s_q, d) if tp_q else (bs, d, s_q)
        q, k, v = refs.random_sample_tensors([(q_shape, dt(dtype)), ((bs, d, s_kv), dt(dtype)),
                                              ((bs, s_kv, d), dt(dtype))])
        outputs = simulate(lib("core.attention.attention_cte").attention_cte, lnc, q=q, k=k, v=v, scale=scale,
                           causal_mask=causal, k_prior=None, v_prior=None, prior_used_len=None, sink=None,
                           sliding_window=0, tp_q=tp_q, tp_k=False, tp_out=tp_out, cp_offset=None,
                           global_cp_deg=None, cp_strided_q_slicing=False, cache_softmax=False,
                           softmax_dtype="float32", mm_out_dtype="float32", bound_min=None, bound_max=None)
        expected = refs.attention_cte(q, k, v, scale, causal, tp_q, False, tp_out)
        expected = {"out": expected["out"].astype(dt(dtype))}  # the golden is cast to the dtype
        return checks(outputs, expected, close(2e-2, 1e-5))
    name = f"bs{bs}_skv{s_kv}_sq{s_q}_d{d}_scale{scale}" + ("_causal" if causal else "") + \
           ("_tpq" if tp_q else "") + ("_tpout" if tp_out else "")
    return Case("attention_cte", name, dtype, run, lnc=lnc, note=note)


# --- experimental/conv depthwise_conv1d (test_depthwise_conv1d.py) ----------
def depthwise_conv1d_case(batch, channels, width, kernel_size, stride, padding, dtype):
    def run():
        img, filters = refs.gaussian_tensors([((batch, channels, 1, width), dt(dtype)),
                                              ((channels, 1, 1, kernel_size), dt(dtype))])
        outputs = simulate(lib("experimental.conv.depthwise_conv1d").depthwise_conv1d_implicit_gemm, 2,
                           img_ref=img, filter_ref=filters, padding=padding, stride=stride, rhs_dilation=(1, 1),
                           lhs_dilation=(1, 1), feature_group_count=channels, batch_group_count=1)
        return checks(outputs, refs.depthwise_conv1d(img, filters, padding, stride), close(1e-2, 1e-2))
    name = f"n{batch}_c{channels}_w{width}_s{kernel_size}_st{stride[1]}_p{padding[1][0]}-{padding[1][1]}"
    return Case("depthwise_conv1d", name, dtype, run, lnc=2)


# --- core/subkernels indexed_flatten (test_indexed_flatten.py) ---------------
def indexed_flatten_case(t, e, f_len, n=None, start=None):
    def run():
        rows = e if n is None else n
        output_len = ((rows * t + 1024 + 127) // 128) * 128
        inputs = dict(input_tensor=np.arange(e * t, dtype=np.int32).reshape(e, t), f_len=f_len,
                      output_len=output_len,
                      row_offsets=np.array([t // f_len * k for k in range(rows)], dtype=np.int32),
                      row_offsets_start=None if start is None else np.array([start], dtype=np.int32),
                      padding_val=-1)
        outputs = simulate(lib("core.subkernels.indexed_flatten").indexed_flatten, 2, **inputs)
        return checks(outputs, refs.indexed_flatten(**inputs), close(0, 0))
    name = f"t{t}_e{e}_f{f_len}" + ("" if n is None else f"_n{n}_start{start}")
    return Case("indexed_flatten", name, "int32", run, lnc=2)


# --- core/router_topk (test_router_topk.py) ----------------------------------
def router_topk_wrapper(x, w, w_bias, router_logits, expert_affinities, expert_index, act_fn, k, x_hbm_layout,
                        x_sb_layout, output_in_sbuf=False, router_pre_norm=True, norm_topk_prob=False,
                        use_column_tiling=False, use_indirect_dma_scatter=False, use_PE_broadcast_w_bias=False,
                        shard_on_tokens=False, x_input_in_sbuf=False):
    """What the test's router_topk_kernel_wrapper does (test_router_topk_common.py):
    loads x into SBUF in the requested layout when x_input_in_sbuf, gives the
    kernel SBUF outputs when output_in_sbuf and copies them out after, and
    returns the three outputs."""
    import nki.isa as nisa_isa
    import nki.language as nl
    module = lib("core.router_topk.router_topk")
    if x_input_in_sbuf:
        x = module.router_topk_input_x_load(x, hbm_layout=module.XHBMLayout_T_H__1, sb_layout=x_sb_layout)
    index_out, affinities_out = expert_index, expert_affinities
    if output_in_sbuf:
        t, e = expert_affinities.shape
        index_out = nl.ndarray((t, k), dtype=nl.uint32, buffer=nl.sbuf)
        affinities_out = nl.ndarray((t, e), dtype=nl.float32, buffer=nl.sbuf)
    module.router_topk(x=x, w=w, w_bias=w_bias, router_logits=router_logits, expert_affinities=affinities_out,
                       expert_index=index_out, act_fn=act_fn, k=k, x_hbm_layout=x_hbm_layout,
                       x_sb_layout=x_sb_layout, router_pre_norm=router_pre_norm, norm_topk_prob=norm_topk_prob,
                       use_column_tiling=use_column_tiling, use_indirect_dma_scatter=use_indirect_dma_scatter,
                       return_eager_affi=False, use_PE_broadcast_w_bias=use_PE_broadcast_w_bias,
                       shard_on_tokens=shard_on_tokens, skip_store_expert_index=False,
                       skip_store_router_logits=False)
    if output_in_sbuf:
        nisa_isa.dma_copy(src=index_out, dst=expert_index)
        nisa_isa.dma_copy(src=affinities_out, dst=expert_affinities)
    return [router_logits, expert_index, expert_affinities]


def router_topk_case(t, h, e, k, act, bias, pre_norm, norm_prob, col_tiling, scatter, pe_bias, shard, out_sb,
                     x_in_sb, x_hbm_layout, x_sb_layout, lnc=1):
    def run():
        acts = lib("core.utils.common_types").RouterActFnType
        bf16 = dt("bfloat16")
        x_th = x_in_sb or x_hbm_layout == 1
        x = refs.router_topk_tensor((t, h) if x_th else (h, t), bf16)
        w = refs.router_topk_tensor((h, e), bf16)
        w_bias = refs.router_topk_tensor((1, e), bf16) if bias else None
        inputs = dict(x=x, w=w, w_bias=w_bias, router_logits=np.zeros((t, e), bf16),
                      expert_affinities=np.zeros((t, e), np.float32 if out_sb else bf16),
                      expert_index=np.zeros((t, k), np.uint32), act_fn=getattr(acts, act.upper()), k=k,
                      x_hbm_layout=x_hbm_layout, x_sb_layout=x_sb_layout, router_pre_norm=pre_norm,
                      norm_topk_prob=norm_prob, use_column_tiling=col_tiling, use_indirect_dma_scatter=scatter,
                      use_PE_broadcast_w_bias=pe_bias, shard_on_tokens=shard, output_in_sbuf=out_sb,
                      x_input_in_sbuf=x_in_sb)
        outputs = simulate(router_topk_wrapper, lnc, **inputs)
        expected = refs.router_topk(x, w, w_bias, act, k, x_th, pre_norm, norm_prob)
        expected = {"router_logits": expected["router_logits"].astype(bf16),
                    "expert_index": expected["expert_index"].astype(np.uint32),
                    "expert_affinities": expected["expert_affinities"].astype(inputs["expert_affinities"].dtype)}
        return checks(outputs, expected, close(2e-2, 1e-5))
    flags = [("bias", bias), ("prenorm", pre_norm), ("normprob", norm_prob), ("coltile", col_tiling),
             ("scatter", scatter), ("pebias", pe_bias), ("shardt", shard), ("outsb", out_sb), ("xsb", x_in_sb)]
    name = f"t{t}_h{h}_e{e}_k{k}_{act}" + "".join(f"_{f}" for f, on in flags if on) + \
           f"_xhbm{x_hbm_layout}_xsbl{x_sb_layout}"
    note = "inputs: NumPy uniform(-0.1, 0.1) seeded 0 per tensor (the test draws them with torch's generator)"
    return Case("router_topk", name, "bfloat16", run, lnc=lnc, note=note)


# --- core/topk rotational topk (test_topk.py, test_topk_unit) ----------------
def topk_case(lnc_test, b, s, v, k, dtype):
    def run():
        module = lib("core.topk.rotational_topk")
        np.random.seed(42)
        inp = np.random.randn(b * s, v).astype(dt(dtype))
        topk_config = module.create_topk_config(inp_shape=(b, s, v), inp_dtype=dtype, k=k, sorted=True,
                                                num_programs=1)
        config = module.create_rotational_topk_config(inp_shape=(topk_config.BxS, topk_config.vocab_size),
                                                      topk_config=topk_config)
        config = module.prepare_rotational_constants(config)
        try:
            values, indices = simulate(module.rotational_topk, 1, inp=inp, config=config)
        finally:
            module.cleanup_rotational_constants()
        # the test's validators: sorted values, and the input's values at the returned indices, each
        # against torch.topk's sorted values (maxAllClose's defaults)
        expected = np.sort(refs.topk_values(inp, k), axis=-1)
        at_indices = np.take_along_axis(refs.f32(inp), np.asarray(indices).astype(np.int64), axis=-1)
        compare = close(1e-5, 1e-8)
        return [("topk_values", np.sort(refs.f32(values), axis=-1), expected, compare),
                ("topk_indices", np.sort(at_indices, axis=-1), expected, compare)]
    note = "" if lnc_test == 1 else "the test runs this shape at LNC=2"
    return Case("rotational_topk", f"b{b}_s{s}_v{v}_k{k}", dtype, run, needs=("scipy",), note=note)


# --- the SDK's fused mamba (nki/examples/fused_mamba) ------------------------
def mamba_inputs(b, s, c, st, kind):
    if kind == "ones":  # the example's own inputs (mamba_torch.py and the kernels' __main__)
        return (np.ones((b, c, s), np.float32), np.ones((b, c, s), np.float32), -np.ones((c, st), np.float32),
                np.ones((b, st, s), np.float32), np.ones((b, st, s), np.float32))
    rng = np.random.default_rng(0)  # ours: values that make a wrong scan visible
    return (rng.uniform(0, 1, (b, c, s)).astype(np.float32), rng.normal(size=(b, c, s)).astype(np.float32),
            -rng.uniform(0.5, 1.5, (c, st)).astype(np.float32), rng.normal(size=(b, st, s)).astype(np.float32),
            rng.normal(size=(b, st, s)).astype(np.float32))


def mamba_case(version, b, s, c, st, kind):
    def run():
        import mamba_nki_kernels
        delta, u, a, b_, c_ = mamba_inputs(b, s, c, st, kind)
        out = getattr(mamba_nki_kernels, f"mamba_{version}")(delta, u, a, b_, c_)  # called as its benchmark does
        # mamba_torch.py's accuracy mode: torch.allclose(torch_out, nki_out, atol=1e-2, rtol=1e-2)
        return [("output", out, refs.mamba(delta, u, a, b_, c_),
                 lambda x, y: refs.torch_allclose(x, y, 1e-2, 1e-2))]
    note = "" if kind == "ones" else "random inputs (ours) with the example's tolerance"
    return Case("fused_mamba", f"{version}_b{b}_s{s}_c{c}_st{st}_{kind}", "float32", run, source="sdk", note=note)


# --- experimental/dynamic_shapes dynamic_elementwise_add (test_dynamic_elementwise_add.py) --
def dynamic_elementwise_add_case(m_dim, h_dim, swapped=False, lnc=2, tiles=None):
    """The kernel's M-tile loop is a runtime loop (nl.dynamic_range over a
    register loaded from num_m_tiles), recorded once. `swapped`: the test's
    commutativity case (the kernel gets b, a; the golden is a + b; tolerance 0).
    `tiles`: ours, fewer M-tiles than M // 128 (the docstring: the rows after
    them are unmodified, here the zeros an output starts with)."""
    def run():
        input_a, input_b = refs.gaussian_tensors([((m_dim, h_dim), dt("bfloat16")), ((m_dim, h_dim), dt("bfloat16"))])
        num_m_tiles = np.array([[m_dim // 128 if tiles is None else tiles]], dtype=np.int32)
        given = (input_b, input_a) if swapped else (input_a, input_b)
        outputs = simulate(lib("experimental.dynamic_shapes").dynamic_elementwise_add, lnc, input_a=given[0],
                           input_b=given[1], num_m_tiles=num_m_tiles)
        expected = refs.dynamic_elementwise_add(input_a, input_b)
        if tiles is not None:
            expected["result"][tiles * 128:] = 0
        return checks(outputs, expected, close(0.0, 0.0) if swapped else close(1e-2, 1e-3))
    note = "" if lnc == 2 else "the test runs LNC=2 (CompilerArgs())"
    if tiles is not None:
        note = f"ours: num_m_tiles={tiles} of {m_dim // 128}"
    name = f"m{m_dim}_h{h_dim}" + ("_swapped" if swapped else "") + ("" if tiles is None else f"_tiles{tiles}")
    return Case("dynamic_elementwise_add", name, "bfloat16", run, lnc=lnc, note=note)


def deferred(case, why):
    case.marks.append(pytest.mark.xfail(reason=why, raises=nisa.Error, strict=True))
    return case


CASES = [
    rope_hf_case(1, 32, 8, 256, 128, "bfloat16", False),
    rope_hf_case(1, 32, 8, 256, 128, "float32", False),
    rope_hf_case(4, 1, 1, 512, 128, "bfloat16", False),
    rope_hf_case(1, 32, 8, 512, 64, "float32", False),
    rope_hf_case(1, 32, 8, 256, 128, "float32", True),
    rope_hf_case(1, 32, 8, 256, 128, "bfloat16", False, lnc=2, packed=True),
    rope_case(64, 1, 1, 16, True, False),
    rope_case(128, 8, 8, 128, False, True),
    rope_case(64, 64, 1, 16, False, False),
    rope_case(128, 1, 8, 128, True, True),
    rope_case(64, 1, 1, 16, False, True),  # B*n_heads*S <= 512: the relayout by matmul in SBUF
    cascaded_max_case(4, 5, 4058, "float32"),
    cascaded_max_case(1, 1, 3168, "float32"),
    cascaded_max_case(1, 7, 3999, "float32"),
    cascaded_max_case(1, 127, 3999, "float32"),
    cascaded_max_case(8, 5, 256, "bfloat16"),
    cascaded_max_case(32, 1, 256, "bfloat16"),
    cumsum_case(1, 256, 2, 1, "float32"),
    cumsum_case(64, 1024, 3, 4, "bfloat16"),
    cumsum_case(128, 2048, 2, 1, "float32"),
    # the test's own LNC (CompilerArgs(): 2): both cores compute everything and write the same values
    cumsum_case(1, 256, 2, 1, "float32", lnc=2),
    cumsum_case(64, 1024, 3, 4, "bfloat16", lnc=2),
    cumsum_case(128, 2048, 2, 1, "float32", lnc=2),
    rmsnorm_tkg_case(1, 1, 8192, None, False, "float16"),
    rmsnorm_tkg_case(1, 8, 8192, None, False, "float16"),
    rmsnorm_tkg_case(1, 1, 4096, 3072, False, "float16"),
    rmsnorm_tkg_case(1, 4, 2048, 1920, False, "float16"),
    rmsnorm_tkg_case(1, 1, 4096, 3072, True, "float16"),
    rmsnorm_tkg_case(1, 4, 2048, 2048, False, "bfloat16", note="the test's shape in bf16 (its cases are fp16)"),
    # the test's LNC2 rows: B*S > 18 and even shards B*S; shard_on_h swaps partial sums by sendrecv
    rmsnorm_tkg_case(1, 1, 5120, None, False, "float16", lnc=2),
    rmsnorm_tkg_case(1, 1, 8192, None, False, "float16", lnc=2),
    rmsnorm_tkg_case(2, 8, 8192, None, False, "float16", lnc=2),
    rmsnorm_tkg_case(4, 8, 8192, None, False, "float16", lnc=2),
    rmsnorm_tkg_case(128, 1, 8192, None, False, "float16", lnc=2),
    rmsnorm_tkg_case(4, 1, 5120, None, False, "float16", lnc=2),
    rmsnorm_tkg_case(128, 5, 3072, None, False, "float16", lnc=2),
    rmsnorm_tkg_case(63, 32, 3072, None, False, "float16", lnc=2),
    rmsnorm_tkg_case(1, 1, 16384, None, False, "float16", lnc=2),
    rmsnorm_tkg_case(1, 1, 4096, 3072, False, "float16", lnc=2),
    rmsnorm_tkg_case(2, 8, 16384, None, False, "float16", lnc=2),
    rmsnorm_tkg_case(2, 8, 3072, 2880, False, "float16", lnc=2),
    rmsnorm_tkg_case(1, 1, 5120, None, True, "float16", lnc=2),
    rmsnorm_tkg_case(128, 1, 8192, None, True, "float16", lnc=2),
    rmsnorm_tkg_case(2, 8, 3072, 2880, True, "float16", lnc=2),
    rmsnorm_tkg_case(1, 1, 8192, None, False, "float16", lnc=2, shard_on_h=True),
    rmsnorm_tkg_case(2, 8, 8192, None, False, "float16", lnc=2, shard_on_h=True),
    rmsnorm_tkg_case(1, 1, 5120, None, False, "float16", lnc=2, shard_on_h=True),
    rmsnorm_tkg_case(4, 1, 3072, None, False, "float16", lnc=2, shard_on_h=True),
    rmsnorm_tkg_case(1, 1, 16384, None, False, "float16", lnc=2, shard_on_h=True),
    layernorm_tkg_case(1, 1, 8192, "float16"),
    layernorm_tkg_case(1, 8, 8192, "float16"),
    layernorm_tkg_case(4, 2, 1024, "bfloat16"),
    layernorm_tkg_case(2, 1, 512, "float32"),
    # the test's LNC2 rows: B*S > 10 and even shards B*S; shard_on_h swaps [sum(x^2) | sum(x)] by sendrecv
    layernorm_tkg_case(1, 1, 5120, "float16", lnc=2),
    layernorm_tkg_case(1, 1, 8192, "float16", lnc=2),
    layernorm_tkg_case(2, 8, 8192, "float16", lnc=2),
    layernorm_tkg_case(4, 8, 8192, "float16", lnc=2),
    layernorm_tkg_case(128, 1, 8192, "float16", lnc=2),
    layernorm_tkg_case(128, 1, 8192, "float16", lnc=2, shard_on_h=True),
    layernorm_tkg_case(4, 1, 5120, "float16", lnc=2),
    layernorm_tkg_case(128, 5, 3072, "float16", lnc=2),
    layernorm_tkg_case(63, 32, 3072, "float16", lnc=2),
    layernorm_tkg_case(1, 1, 16384, "float16", lnc=2),
    layernorm_tkg_case(2, 5, 16384, "float16", lnc=2),
    layernorm_tkg_case(1, 1, 8192, "float16", lnc=2, shard_on_h=True),
    layernorm_tkg_case(2, 8, 8192, "float16", lnc=2, shard_on_h=True),
    layernorm_tkg_case(1, 1, 5120, "float16", lnc=2, shard_on_h=True),
    layernorm_tkg_case(4, 1, 3072, "float16", lnc=2, shard_on_h=True),
    layernorm_tkg_case(1, 1, 16384, "float16", lnc=2, shard_on_h=True),
    layernorm_tkg_case(4, 2, 1024, "bfloat16", lnc=2, note="our bf16 row at the test's LNC"),
    find_nonzero_case(4096, 128, 8, 4096, "int32"),
    find_nonzero_case(4096, 128, 8, 4096, "float32"),
    find_nonzero_case(4096, 128, 8, 4096, "int32", start=0, n_cols=4),
    find_nonzero_case(10240, 128, 4, 10240, "float32", start=120, n_cols=8),
    find_nonzero_case(4096, 128, 8, 4096, "float32", lnc=2),
    cross_entropy_forward_case(1, 1, 32128, "bfloat16", 1, 32128),
    cross_entropy_forward_case(1, 64, 32128, "bfloat16", 64, 16384, note="fewer positions, two chunks"),
    cross_entropy_forward_case(1, 64, 32128, "float32", 64, 16384,
                               note="the test's fp32 rows take CS=32768: two such tiles overfill SBUF"),
    cross_entropy_backward_case(1, 1, 32128, "bfloat16", 1, 16384, "mean"),
    cross_entropy_backward_case(1, 64, 32128, "float32", 64, 8192, "sum", note="the fp32 fast row, 64 positions"),
    cross_entropy_backward_case(1, 64, 32128, "float32", 64, 8192, "mean", note="64 positions"),
    # the test's own LNC (CompilerArgs(): 2): each core takes half the positions, the last one the rest
    cross_entropy_forward_case(1, 1, 32128, "bfloat16", 1, 32128, lnc=2, note="core 0 has no position"),
    cross_entropy_forward_case(1, 64, 32128, "bfloat16", 64, 16384, lnc=2, note="fewer positions, two chunks"),
    cross_entropy_forward_case(1, 64, 32128, "float32", 64, 16384, lnc=2,
                               note="the test's fp32 rows take CS=32768: two such tiles overfill SBUF"),
    cross_entropy_forward_case(1, 131, 32128, "float32", 64, 16384, lnc=2, note="an odd count: 65 and 66"),
    cross_entropy_backward_case(1, 1, 32128, "bfloat16", 1, 16384, "mean", lnc=2, note="core 0 has no position"),
    cross_entropy_backward_case(1, 64, 32128, "float32", 64, 8192, "sum", lnc=2,
                                note="the fp32 fast row, 64 positions"),
    cross_entropy_backward_case(1, 64, 32128, "float32", 64, 8192, "mean", lnc=2, note="64 positions"),
    cross_entropy_backward_case(1, 131, 32128, "bfloat16", 64, 16384, "mean", lnc=2, note="an odd count: 65 and 66"),
    conv1d_case(1, 16, 32, 20, 3, 1, 0, 0, 1, False, None, "float32"),
    conv1d_case(1, 16, 32, 20, 3, 1, 0, 0, 1, True, "SiLU", "float32"),
    conv1d_case(2, 64, 128, 40, 5, 2, 2, 2, 2, True, "GELU", "float32"),
    conv1d_case(1, 64, 128, 80, 5, 2, 1, 3, 1, True, "GELU", "float32"),
    conv1d_case(1, 48, 64, 128, 100, 1, 1, 1, 1, True, None, "float32"),
    conv1d_case(1, 16, 32, 20, 3, 1, 0, 0, 1, False, None, "bfloat16"),
    conv1d_case(1, 16, 32, 20, 3, 1, 0, 0, 1, True, "SiLU", "bfloat16"),
    conv1d_case(1, 64, 128, 100, 5, 1, 2, 2, 1, True, "GELU", "bfloat16"),
    attention_cte_case(1, 128, 128, 128, 1.0, "bfloat16", True, False, True),
    attention_cte_case(3, 1024, 512, 128, 1.0, "float16", False, False, True),
    attention_cte_case(1, 1024, 512, 64, 0.5, "float32", False, True, False,
                       note="the test's row at s_kv=9216, s_q=4096"),
    attention_cte_case(1, 2048, 2048, 8, 1.0, "float32", True, False, False, note="the test's row at 16384"),
    # LNC=2 (test_attention_cte_no_cp_vnc_unit's rows; CompilerArgs() elsewhere): batches split between the
    # cores; an odd last batch split on seqlen_q groups from seqlen_q 1024 on, else core 0's
    attention_cte_case(1, 128, 128, 128, 1.0, "bfloat16", True, False, True, lnc=2),
    attention_cte_case(3, 1024, 512, 128, 1.0, "float16", False, False, True, lnc=2),
    attention_cte_case(1, 1024, 512, 64, 0.5, "float32", False, True, False, lnc=2,
                       note="the test's row at s_kv=9216, s_q=4096"),
    attention_cte_case(2, 512, 512, 128, 1.0, "bfloat16", True, False, True, lnc=2),
    attention_cte_case(1, 1024, 1024, 128, 1.0, "bfloat16", True, False, True, lnc=2),
    attention_cte_case(3, 2048, 1024, 128, 0.125, "bfloat16", False, False, False, lnc=2),
    attention_cte_case(2, 1024, 1024, 64, 1.0, "bfloat16", True, False, True, lnc=2),
    attention_cte_case(1, 2048, 2048, 64, 1.0, "float32", True, True, False, lnc=2,
                       note="the test's row at 8192"),
    # experimental/conv depthwise_conv1d: the test runs LNC=2 only (channels split between the cores)
    depthwise_conv1d_case(1, 16, 512, 64, (1, 1), ((0, 0), (0, 0)), "bfloat16"),
    depthwise_conv1d_case(1, 256, 512, 64, (1, 1), ((0, 0), (10, 10)), "bfloat16"),
    depthwise_conv1d_case(1, 256, 512, 64, (1, 2), ((0, 0), (0, 0)), "bfloat16"),
    depthwise_conv1d_case(1, 256, 512, 64, (1, 2), ((0, 0), (5, 5)), "bfloat16"),
    depthwise_conv1d_case(1, 16, 512, 3, (1, 1), ((0, 0), (1, 1)), "bfloat16"),
    depthwise_conv1d_case(1, 16, 512, 200, (1, 2), ((0, 0), (10, 10)), "bfloat16"),
    depthwise_conv1d_case(2, 256, 512, 64, (1, 1), ((0, 0), (5, 5)), "bfloat16"),
    depthwise_conv1d_case(1, 2, 512, 64, (1, 1), ((0, 0), (0, 0)), "bfloat16"),
    depthwise_conv1d_case(1, 256, 129, 128, (1, 1), ((0, 0), (0, 0)), "bfloat16"),
    depthwise_conv1d_case(1, 256, 512, 64, (1, 1), ((0, 0), (0, 0)), "float32"),
    depthwise_conv1d_case(1, 256, 512, 128, (1, 1), ((0, 0), (0, 0)), "float16"),
    depthwise_conv1d_case(1, 256, 512, 64, (1, 2), ((0, 0), (0, 0)), "float32"),
    # core/subkernels indexed_flatten: LNC=2 only (rows split, a max all-reduce by sendrecv)
    indexed_flatten_case(4096, 1, 128),
    indexed_flatten_case(4096, 2, 128),
    indexed_flatten_case(4096, 2, 256),
    indexed_flatten_case(4096, 3, 128),
    indexed_flatten_case(10240, 16, 128),
    indexed_flatten_case(10240, 17, 128),
    indexed_flatten_case(65536, 4, 128),
    indexed_flatten_case(65536, 4, 256),
    indexed_flatten_case(4096, 64, 128),
    indexed_flatten_case(4096, 128, 128),
    indexed_flatten_case(4096, 256, 128),
    indexed_flatten_case(4096, 2, 128, n=4, start=2),
    indexed_flatten_case(4096, 3, 128, n=5, start=1),
    indexed_flatten_case(10240, 8, 128, n=16, start=8),
    router_topk_case(4, 3072, 128, 4, "softmax", True, False, False, False, False, False, False, False, False, 0, 0),
    router_topk_case(4, 3072, 128, 4, "softmax", False, False, False, False, False, False, False, False, False, 0, 0),
    router_topk_case(4, 3072, 128, 4, "softmax", True, False, False, False, False, True, False, False, False, 0, 0),
    router_topk_case(4, 3072, 256, 4, "softmax", True, False, False, False, False, False, False, False, False, 0, 0),
    router_topk_case(16, 3072, 128, 4, "softmax", True, False, False, True, False, False, False, False, False, 0, 0),
    router_topk_case(4, 3072, 128, 4, "softmax", True, False, False, False, False, False, False, False, False, 1, 0),
    router_topk_case(4, 3072, 128, 4, "softmax", True, False, False, False, False, False, False, False, True, 0, 1),
    router_topk_case(4, 3072, 128, 4, "softmax", True, False, False, False, False, False, False, False, True, 0, 2),
    router_topk_case(8, 3072, 128, 4, "softmax", True, True, True, False, False, False, False, False, False, 0, 0),
    router_topk_case(4, 3072, 128, 4, "softmax", True, False, False, False, True, False, False, False, False, 0, 0),
    router_topk_case(8, 8192, 128, 8, "sigmoid", True, True, True, False, True, False, False, False, False, 0, 0),
    router_topk_case(4, 512, 128, 4, "softmax", False, False, False, False, False, False, True, True, False, 0, 0,
                     lnc=2),
    # the test's own LNC (CompilerArgs(): 2): its rows above, each core storing its part of the outputs
    # between core_barriers, and its rows that shard the tokens (sendrecv of expert_index and affinities)
    *[router_topk_case(*row, lnc=2) for row in [
        (4, 3072, 128, 4, "softmax", True, False, False, False, False, False, False, False, False, 0, 0),
        (4, 3072, 128, 4, "softmax", False, False, False, False, False, False, False, False, False, 0, 0),
        (4, 3072, 128, 4, "softmax", True, False, False, False, False, True, False, False, False, 0, 0),
        (4, 3072, 256, 4, "softmax", True, False, False, False, False, False, False, False, False, 0, 0),
        (16, 3072, 128, 4, "softmax", True, False, False, True, False, False, False, False, False, 0, 0),
        (4, 3072, 128, 4, "softmax", True, False, False, False, False, False, False, False, False, 1, 0),
        (4, 3072, 128, 4, "softmax", True, False, False, False, False, False, False, False, True, 0, 1),
        (4, 3072, 128, 4, "softmax", True, False, False, False, False, False, False, False, True, 0, 2),
        (8, 3072, 128, 4, "softmax", True, True, True, False, False, False, False, False, False, 0, 0),
        (4, 3072, 128, 4, "softmax", True, False, False, False, True, False, False, False, False, 0, 0),
        (8, 8192, 128, 8, "sigmoid", True, True, True, False, True, False, False, False, False, 0, 0),
        (48, 3072, 128, 4, "softmax", True, False, False, False, False, False, True, False, False, 0, 0),
        (80, 3072, 128, 4, "softmax", True, False, False, False, False, False, True, False, False, 0, 0),
        (160, 3072, 128, 4, "softmax", True, False, False, False, False, False, True, False, False, 0, 0),
        (2, 512, 128, 4, "softmax", False, False, False, False, False, False, True, True, False, 0, 0),
        (5, 512, 128, 4, "softmax", False, False, False, False, False, False, True, True, False, 0, 0),
        (32, 512, 128, 4, "softmax", False, False, False, False, False, False, True, True, False, 0, 0),
        (128, 512, 128, 4, "softmax", False, False, False, False, False, False, True, True, False, 1, 0),
        (128, 512, 128, 4, "softmax", False, False, False, False, False, False, True, True, True, 0, 1),
        (128, 512, 128, 4, "softmax", False, False, False, False, False, False, True, True, True, 0, 2),
    ]],
    topk_case(1, 4, 5, 8192, 256, "float32"),
    topk_case(1, 1, 7, 3999, 256, "float32"),
    topk_case(1, 1, 63, 3999, 20, "float32"),
    topk_case(1, 4, 5, 8192, 2048, "float32"),
    topk_case(2, 1, 1, 3168, 256, "bfloat16"),
    topk_case(2, 8, 5, 4058, 256, "bfloat16"),
    *[dynamic_elementwise_add_case(m, h) for m in (128, 256, 1024) for h in (512, 1024, 2048)],
    *[dynamic_elementwise_add_case(m, h, swapped=True) for m in (128, 256) for h in (512, 1024)],
    dynamic_elementwise_add_case(256, 1024, lnc=1),
    dynamic_elementwise_add_case(1024, 2048, lnc=1),
    dynamic_elementwise_add_case(1024, 1024, tiles=3),
    dynamic_elementwise_add_case(1024, 1024, tiles=0),
    mamba_case("v1", 1, 512, 256, 16, "ones"),
    mamba_case("v2", 1, 2048, 256, 16, "ones"),
    mamba_case("v3", 1, 2048, 256, 16, "ones"),
    mamba_case("v1", 1, 512, 256, 16, "random"),
    mamba_case("v2", 1, 512, 256, 16, "random"),
    mamba_case("v3", 1, 512, 256, 16, "random"),
]


# --- the test ------------------------------------------------------------------
def _report(case, result, detail):
    if REPORT:
        with open(REPORT, "a") as f:
            f.write(json.dumps({"kernel": case.kernel, "case": case.name, "dtype": case.dtype, "lnc": case.lnc,
                                "result": result, "detail": detail, "note": case.note}) + "\n")


def _skip(case, why):
    _report(case, "skip", why)
    pytest.skip(why)


def _first_line(error):
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0] if text else ''}"


@pytest.mark.parametrize("case", [pytest.param(c, id=c.id, marks=c.marks) for c in CASES])
def test_kernel(case):
    if case.source == "library" and not LIBRARY:
        _skip(case, "set NKI_LIBRARY=/path/to/nki-library (a checkout of aws-neuron/nki-library) to run its kernels")
    if case.source == "sdk" and not SDK:
        _skip(case, "set NKI_SDK=/path/to/aws-neuron-sdk to run its fused mamba kernels")
    for module in case.needs + (("ml_dtypes",) if case.dtype == "bfloat16" else ()):
        try:
            importlib.import_module(module)
        except ImportError:
            _skip(case, f"needs the Python module {module}")
    if case.source == "library":
        _load_library()
    else:
        _load_sdk_mamba()
    try:
        results = case.run()
    except Exception as e:
        if case.marks and isinstance(e, nisa.Error):
            _report(case, "deferred", f"{case.marks[0].kwargs['reason']} ({_first_line(e)})")
        else:
            _report(case, "error", _first_line(e))
        raise
    failures = []
    worst = ""
    for name, actual, expected, compare in results:
        passed, largest, allowed = compare(actual, expected)
        worst += f"{name} {largest:.3g}/{allowed:.3g} "
        if not passed:
            failures.append(f"{name}: largest |difference| {largest:.6g} > allowed {allowed:.6g}")
    _report(case, "fail" if failures else "pass", "; ".join(failures) if failures else worst.strip())
    assert not failures, "; ".join(failures)
