"""NumPy references, input generators and the comparison for the nki-library
kernels run by test_nki_library.py (issue 27).

nki-library's own tests compare each kernel with a torch function (the
`*_torch.py` file next to the kernel) through `maxAllClose`. torch is not
installed here, so each reference below is our NumPy port of that torch
function's formula; the comment above each names the file ported. Inputs are
made the way the test makes them (same generator, seed and order of draws).

bf16 follows torch's CPU rules as the tests use them: `torch_ref_wrapper`
turns bf16 inputs into float32 and computes in float32 (its default), or,
with `preserve_lower_precision=True`, computes in bf16, each operation
rounding its float32 result to bf16 (round to nearest even) as torch and
ml_dtypes both do.
"""
import math

import numpy as np


def bf16_dtype():
    """ml_dtypes.bfloat16 (imported here so that float32 cases run without it)."""
    import ml_dtypes
    return np.dtype(ml_dtypes.bfloat16)


def numpy_dtype(name):
    """A test's dtype name -> the NumPy dtype of its arrays."""
    if name == "bfloat16":
        return bf16_dtype()
    return np.dtype(name)


def f32(x):
    return np.asarray(x).astype(np.float32)


# --- the comparison ----------------------------------------------------------
def max_all_close(actual, expected, rtol, atol):
    """nki-library's `maxAllClose` in its default "max" mode
    (test/integration/nkilib/utils/comparators.py): every element within
    atol + rtol * max|expected| (over finite expected values), equal
    infinities equal, and finite exactly where expected is. Both sides are
    compared as float32, as the test's OutputValidator does. Returns
    (passed, largest |difference|, the allowed difference)."""
    a = np.asarray(actual).astype(np.float32).astype(np.float64)
    b = np.asarray(expected).astype(np.float32).astype(np.float64)
    if a.shape != b.shape:
        return False, math.inf, 0.0
    finite = np.abs(b)[np.isfinite(b)]
    brange = float(finite.max()) if finite.size else 0.0
    with np.errstate(invalid="ignore"):
        diff = np.abs(a - b)
    diff = np.where(np.isinf(a) & np.isinf(b) & (np.sign(a) == np.sign(b)), 0.0, diff)
    allowed = atol + rtol * brange
    passed = bool(np.all(diff <= allowed)) and not np.any(np.isfinite(a) != np.isfinite(b))
    largest = float(np.nanmax(diff)) if diff.size and not np.all(np.isnan(diff)) else math.nan
    return passed, largest, allowed


# --- input generators (test/integration/nkilib/utils/tensor_generators.py) --
def gaussian_tensors(shapes_and_dtypes, mean=0.0, std=1.0, seed=0):
    """gaussian_tensor_generator: one default_rng(seed) drawing normal values
    for each tensor in turn, cast to the tensor's dtype."""
    rng = np.random.default_rng(seed)
    return [(rng.normal(size=shape) * std + mean).astype(dtype) for shape, dtype in shapes_and_dtypes]


def random_sample_tensors(shapes_and_dtypes):
    """np_random_sample: np.random.seed(0), then random_sample in [0, 1) for
    each tensor in turn, cast to its dtype."""
    np.random.seed(0)
    return [np.random.random_sample(shape).astype(dtype) for shape, dtype in shapes_and_dtypes]


# --- rope_hf (core/embeddings/rope_hf_torch.py) ------------------------------
def rope_hf(q, k, cos, sin, backward, lower_precision):
    """q_out, k_out = x * cos + rotate_half(x) * sin (forward) or
    x * cos + rotate_half_backward(x * sin) (backward), cos/sin broadcast over
    heads. lower_precision: the test's preserve_lower_precision=True, so with
    bf16 inputs every operation rounds to bf16."""
    work = q.dtype if lower_precision and q.dtype.name == "bfloat16" else np.dtype(np.float32)

    def op(x):  # one torch operation's result in the working dtype
        return np.asarray(x, np.float32).astype(work)

    c = cos.astype(work)[:, None]
    s = sin.astype(work)[:, None]

    def embed(x):
        x = x.astype(work)
        half = x.shape[-1] // 2
        if backward:
            xs = op(f32(x) * f32(s))
            rotated = np.concatenate([xs[..., half:], op(-f32(xs[..., :half]))], axis=-1)
            return op(f32(op(f32(x) * f32(c))) + f32(rotated))
        rotated = np.concatenate([op(-f32(x[..., half:])), x[..., :half]], axis=-1)
        return op(f32(op(f32(x) * f32(c))) + f32(op(f32(rotated) * f32(s))))

    return {"q_out": embed(q), "k_out": embed(k)}


# --- rope (core/embeddings/rope_torch.py) -------------------------------------
def rope(x_in, cos, sin, contiguous_layout):
    """x_in [d_head, B, n_heads, S]; cos, sin [d_head/2, B, S]. Per head the
    pairs (x_r, x_i) rotate by (cos, sin); with contiguous_layout the pairs
    are (first half, second half) of d_head, else (even, odd). float32."""
    x = f32(x_in)
    d_head = x.shape[0]
    half = d_head // 2
    if contiguous_layout:
        x_r, x_i = x[:half], x[half:]
    else:
        x_r, x_i = x[0::2], x[1::2]
    c = f32(cos)[:, :, None, :]
    s = f32(sin)[:, :, None, :]
    out_r = x_r * c - x_i * s
    out_i = x_r * s + x_i * c
    out = np.empty_like(x)
    if contiguous_layout:
        out[:half], out[half:] = out_r, out_i
    else:
        out[0::2], out[1::2] = out_r, out_i
    return {"x_out": out}


# --- cascaded max (core/max/cascaded_max_torch.py) --------------------------
def cascaded_max(input_tensor):
    """torch.max(x, dim=-1, keepdim=True): values and int32 indices."""
    x = f32(input_tensor)
    return {"max_values": x.max(axis=-1, keepdims=True),
            "max_indices": x.argmax(axis=-1)[..., None].astype(np.int32)}


# --- cumsum (core/cumsum/cumsum_torch.py) ------------------------------------
def cumsum(x):
    """torch.cumsum(x, dim=-1) in float32."""
    return {"output_0": np.cumsum(f32(x), axis=-1, dtype=np.float32)}


# --- rmsnorm_tkg (core/subkernels/rmsnorm_torch.py) ---------------------------
def rmsnorm_tkg(x, gamma, hidden_actual, hidden_dim_tp, eps=1e-6, lnc2_layout=False):
    """float32: x / sqrt(sum(x^2) / hidden_actual + eps) (or mean(x^2) + eps)
    * gamma, laid out [128, B*S, H/128]: rmsnorm_tkg_torch_ref_lnc1's
    (h = p * H/128 + j) or, with hidden_dim_tp, (h = j * 128 + p); with
    lnc2_layout (rmsnorm_tkg_torch_ref, the test's choice at LNC=2 without
    hidden_dim_tp) each half of H laid out so and the two side by side."""
    h = f32(x)
    b, s, hidden = h.shape
    if hidden_actual is not None:
        rms = np.sqrt((h * h).sum(axis=-1, keepdims=True) / hidden_actual + eps)
    else:
        rms = np.sqrt((h * h).mean(axis=-1, keepdims=True) + eps)
    norm = (h * (1.0 / rms)) * f32(gamma)
    return {"out": _tkg_layout(norm.reshape(b * s, hidden), hidden_dim_tp, lnc2_layout)}


def _tkg_layout(rows, hidden_dim_tp, lnc2_layout=False):
    bxs, hidden = rows.shape
    if hidden_dim_tp:
        return rows.reshape(bxs, hidden // 128, 128).transpose(2, 0, 1)
    if lnc2_layout:  # "LNC2: interleave two halves"
        half = hidden // 2
        return np.concatenate([_tkg_layout(rows[:, :half], False), _tkg_layout(rows[:, half:], False)], axis=2)
    return rows.reshape(bxs, 128, hidden // 128).transpose(1, 0, 2)


# --- layernorm_tkg (core/subkernels/layernorm_torch.py) ------------------------
def layernorm_tkg(x, gamma, beta, eps=1e-6, lnc2_layout=False):
    """float32: (x - mean) * (1 / sqrt(var + eps)) * gamma + beta, with the
    population variance, laid out [128, B*S, H/128] as rmsnorm_tkg's
    (lnc2_layout: layernorm_tkg_torch_ref's, the test's choice at LNC=2 or
    with shard_on_h)."""
    h = f32(x)
    b, s, hidden = h.shape
    mean = h.mean(axis=-1, keepdims=True)
    var = h.var(axis=-1, keepdims=True)
    norm = (h - mean) * (1.0 / np.sqrt(var + eps)) * f32(gamma) + f32(beta)
    return {"out": _tkg_layout(norm.reshape(b * s, hidden), False, lnc2_layout)}


# --- indexed_flatten (core/subkernels/indexed_flatten_torch.py) ----------------
def indexed_flatten(input_tensor, f_len, output_len, row_offsets, row_offsets_start=None, padding_val=-1):
    """An [output_len] array of padding_val in which row r of the [E, T]
    input, cut into blocks of f_len, goes to the blocks from
    row_offsets[start + r] on (start: row_offsets_start's one value, else 0);
    blocks past the end are dropped."""
    e, t = input_tensor.shape
    out = np.full(output_len, padding_val, input_tensor.dtype)
    blocks = out.reshape(output_len // f_len, f_len)
    start = 0 if row_offsets_start is None else int(np.asarray(row_offsets_start).reshape(-1)[0])
    for r in range(e):
        for k, block in enumerate(input_tensor[r].reshape(t // f_len, f_len)):
            at = int(row_offsets[start + r]) + k
            if 0 <= at < blocks.shape[0]:
                blocks[at] = block
    return {"flattened_array": out}


# --- depthwise conv1d (test_depthwise_conv1d.py golden_depthwise_conv1d) --------
def depthwise_conv1d(img, filters, padding, stride):
    """torch conv2d(groups=C) of img [N, C, 1, W] with filters [C, 1, 1, S],
    zero padding of padding[1][0] on both sides of W (the golden passes
    (0, W_pad_l) to torch), stride stride[1] along W; float32, then the
    input's dtype."""
    x = f32(img).astype(np.float64)[:, :, 0, :]
    w = f32(filters).astype(np.float64)[:, 0, 0, :]
    pad = padding[1][0]
    x = np.pad(x, ((0, 0), (0, 0), (pad, pad)))
    taps, step = w.shape[1], stride[1]
    q = (x.shape[2] - taps) // step + 1
    out = np.zeros((x.shape[0], x.shape[1], q))
    for k in range(taps):
        out += x[:, :, k:k + step * (q - 1) + 1:step] * w[None, :, k, None]
    return {"output": out[:, :, None, :].astype(np.float32).astype(img.dtype)}


# --- find_nonzero_indices (core/subkernels/find_nonzero_indices_torch.py) ---
def find_nonzero_indices(input_tensor, col_start_id=None, n_cols=None):
    """Per column c: the row indices of its nonzero elements, then -1s; and
    their count."""
    t, c_full = input_tensor.shape
    start, c_out = (0, c_full) if col_start_id is None else (int(col_start_id.reshape(-1)[0]), n_cols)
    indices = np.full((c_out, t), -1, np.int32)
    counts = np.zeros(c_out, np.int32)
    for col in range(c_out):
        nonzero = np.nonzero(input_tensor[:, start + col])[0]
        counts[col] = nonzero.size
        indices[col, :nonzero.size] = nonzero
    return {"indices": indices, "nonzero_counts": counts}


def sparse_input(t, e, top_k, dtype, seed=42):
    """test_find_nonzero_indices.generate_sparse_input: K = T*top_k/E ones per
    column at permuted places (0.1 instead of 1 for float32)."""
    np.random.seed(seed)
    k = t * top_k // e
    flat = np.random.permutation(np.concatenate([np.ones(k * e), np.zeros((t - k) * e)]))
    x = flat.reshape(e, t).T.astype(dtype)
    if dtype == np.float32:
        x[x > 0] = 0.1
    return x


# --- cross entropy (experimental/loss/cross_entropy_torch.py) ---------------
def _in_dtype(x, dtype):
    """An input tensor converted as the test's golden does: bf16 stays bf16."""
    return x.astype(dtype)


def _log_softmax_rows(x):
    """torch's CPU log_softmax: float32 inside (also for bf16 input)."""
    x = f32(x)
    m = x.max(axis=1, keepdims=True)
    return x - m - np.log(np.exp(x - m).sum(axis=1, keepdims=True))


def cross_entropy_forward(logits, targets, dtype_name):
    """loss = F.cross_entropy(logits, targets, reduction='none') (nll of a
    log_softmax computed in float32, rounded to the dtype) and
    lse = torch.logsumexp(logits, dim=1), whose steps (x - max, exp, sum, log,
    + max) each round to the dtype."""
    work = numpy_dtype(dtype_name)

    def op(x):
        return np.asarray(x, np.float32).astype(work)

    x = _in_dtype(logits, work)
    log_sm = op(_log_softmax_rows(x))
    loss = op(-f32(log_sm[np.arange(x.shape[0]), targets]))
    m = f32(x).max(axis=1, keepdims=True)
    shifted = op(f32(x) - m)
    total = op(np.exp(f32(shifted)).astype(work).astype(np.float32).sum(axis=1, keepdims=True, dtype=np.float32))
    lse = op(f32(op(np.log(f32(total)))) + m)
    return {"loss_hbm": loss, "lse_state_hbm": lse[:, 0]}


def cross_entropy_backward(logits, targets, dtype_name, reduction):
    """d loss / d logits of F.cross_entropy(logits, targets, reduction), by
    autograd in torch: (softmax(logits) - onehot(targets)) * scale, scale
    1/num_positions for 'mean', 1 for 'sum'; softmax in float32 rounded to
    the dtype, as torch's log_softmax backward does for bf16."""
    work = numpy_dtype(dtype_name)
    x = _in_dtype(logits, work)
    n = x.shape[0]
    scale = np.float32(1.0 / n if reduction == "mean" else 1.0)
    log_sm = np.asarray(_log_softmax_rows(x), np.float32).astype(work)
    grad_out = np.zeros(x.shape, np.float32)
    grad_out[np.arange(n), targets] = -scale  # nll_loss backward, rounded to the dtype
    grad_out = grad_out.astype(work).astype(np.float32)
    grad = grad_out - np.exp(f32(log_sm)) * grad_out.sum(axis=1, keepdims=True)
    return {"grad_logits_hbm": grad.astype(work)}


def cross_entropy_lse(logits, dtype_name):
    """The test's lse_state input for the backward pass: the forward
    reference's lse."""
    return cross_entropy_forward(logits, np.zeros(logits.shape[0], np.int64), dtype_name)["lse_state_hbm"]


# --- conv1d (experimental/conv/conv1d_torch.py) -------------------------------
def conv1d(x_in, filters, bias, stride, padding, dilation, activation):
    """nn.Conv1d with weight filters.permute(2, 1, 0) ([K, C_in, C_out] ->
    [C_out, C_in, K]), zero padding (pad_left, pad_right), stride, dilation
    and optional bias, then silu / gelu (erf) / gelu_tanh; float32.
    activation: None or one of "silu", "gelu", "gelu_tanh"."""
    x = f32(x_in).astype(np.float64)
    w = f32(filters).astype(np.float64)
    k_size = w.shape[0]
    x = np.pad(x, ((0, 0), (0, 0), (padding[0], padding[1])))
    l_out = (x.shape[2] - dilation * (k_size - 1) - 1) // stride + 1
    out = np.zeros((x.shape[0], w.shape[2], l_out))
    for k in range(k_size):
        taps = x[:, :, k * dilation: k * dilation + stride * (l_out - 1) + 1: stride]
        out += np.einsum("bcl,co->bol", taps, w[k])
    if bias is not None:
        out += f32(bias).astype(np.float64)[None, :, None]
    if activation == "silu":
        out = out / (1.0 + np.exp(-out))
    elif activation == "gelu":
        out = 0.5 * out * (1.0 + _erf(out / math.sqrt(2.0)))
    elif activation == "gelu_tanh":
        out = 0.5 * out * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (out + 0.044715 * out ** 3)))
    elif activation is not None:
        raise ValueError(f"unsupported activation {activation!r}")
    return {"out": out.astype(np.float32)}


_erf = np.vectorize(math.erf, otypes=[np.float64])


# --- attention_cte (core/attention/attention_cte_torch.py) ------------------
def attention_cte(q, k, v, scale, causal_mask, tp_q, tp_k, tp_out):
    """softmax(q @ k * scale + causal mask) @ v in float32, with q given as
    [bs, d, s_q] unless tp_q ([bs, s_q, d]), k as [bs, d, s_kv] unless tp_k,
    the output [bs, s_q, d] or, with tp_out, [bs, d, s_q]; K/V repeated for
    GQA (bs a multiple of bs_kv)."""
    q, k, v = f32(q), f32(k), f32(v)
    if not tp_q:
        q = q.transpose(0, 2, 1)
    if tp_k:
        k = k.transpose(0, 2, 1)
    if q.shape[0] != v.shape[0]:
        k = np.repeat(k, q.shape[0] // k.shape[0], axis=0)
        v = np.repeat(v, q.shape[0] // v.shape[0], axis=0)
    s_q, s_k = q.shape[1], k.shape[2]
    qk = (q @ k) * np.float32(scale)
    if causal_mask:
        ahead = np.arange(s_k)[None, :] - np.arange(s_q)[:, None] > 0
        qk = np.where(ahead[None], -np.inf, qk)
    qk = qk - qk.max(axis=-1, keepdims=True)
    w = np.exp(qk)
    w /= w.sum(axis=-1, keepdims=True)
    out = w @ v
    return {"out": out.transpose(0, 2, 1) if tp_out else out}


# --- router_topk (core/router_topk/router_topk_torch.py) --------------------
def router_topk(x, w, w_bias, act_fn, k, x_th_layout, router_pre_norm, norm_topk_prob):
    """logits = x^T w (+ bias) over [T, E]; expert_index = the k largest per
    token (argsort of -logits); expert_affinities = the activation (softmax or
    sigmoid) of all logits (router_pre_norm; with norm_topk_prob kept only at
    the top k and L1-normalized) or of the top k logits scattered back to
    their experts. act_fn: "softmax" or "sigmoid"."""
    xw = f32(x)
    xw = xw.T if x_th_layout else xw
    logits = xw.T @ f32(w)
    if w_bias is not None:
        logits = logits + f32(w_bias)
    t, e = logits.shape
    index = np.argsort(-logits, axis=-1, kind="stable")[:, :k]

    def activate(a):
        if act_fn == "softmax":
            z = np.exp(a - a.max(axis=-1, keepdims=True))
            return z / z.sum(axis=-1, keepdims=True)
        return 1.0 / (1.0 + np.exp(-a))

    if router_pre_norm:
        full = activate(logits)
        if norm_topk_prob:
            kept = np.zeros((t, e), np.float32)
            np.put_along_axis(kept, index, np.take_along_axis(full, index, axis=-1), axis=-1)
            affinities = kept / kept.sum(axis=1, keepdims=True)
        else:
            affinities = full
    else:
        affinities = np.zeros((t, e), np.float32)
        np.put_along_axis(affinities, index, activate(np.take_along_axis(logits, index, axis=-1)), axis=-1)
    return {"router_logits": logits, "expert_index": index.astype(np.int64),
            "expert_affinities": affinities}


def router_topk_tensor(shape, dtype):
    """router_topk_tensor_gen draws uniform [-0.1, 0.1) float32 values from a
    torch.Generator seeded 0 for every tensor (so every tensor starts from
    the same stream). torch's generator is not available: a NumPy generator
    seeded 0 per tensor keeps the range and the shared-stream property."""
    return np.random.default_rng(0).uniform(-0.1, 0.1, size=shape).astype(np.float32).astype(dtype)


# --- rotational topk (core/topk/torch_ref.py) --------------------------------
def topk_values(inp, k):
    """torch.topk(inp, k, dim=-1, largest=True, sorted=True).values."""
    return -np.sort(-f32(inp), axis=-1)[:, :k]


# --- fused mamba (aws-neuron-sdk nki/examples/fused_mamba/mamba_torch.py) ---
def mamba(delta, u, a, b, c):
    """mamba_layer: deltaA = exp(delta * A), deltaB_u = delta * B * u over
    [batch, channels, state, seq], the scan s_t = deltaA_t * s_{t-1} +
    deltaB_u_t, out = sum over state of C * s; float64 here."""
    delta, u, a, b, c = (np.asarray(t).astype(np.float32).astype(np.float64) for t in (delta, u, a, b, c))
    delta_a = np.exp(delta[:, :, None, :] * a[None, :, :, None])
    delta_b_u = delta[:, :, None, :] * b[:, None, :, :] * u[:, :, None, :]
    scan = np.empty_like(delta_a)
    state = np.zeros(delta_a.shape[:-1])
    for i in range(delta_a.shape[-1]):
        state = delta_a[..., i] * state + delta_b_u[..., i]
        scan[..., i] = state
    return (c[:, None, :, :] * scan).sum(axis=-2)


# --- dynamic_elementwise_add (experimental/dynamic_shapes/dynamic_elementwise_add_torch.py) ---
def dynamic_elementwise_add(input_a, input_b):
    """input_a + input_b; the test (golden_elementwise_add) gives the torch
    function the bf16 inputs as float32 and casts the sum back to bf16."""
    return {"result": (f32(input_a) + f32(input_b)).astype(bf16_dtype())}


def torch_allclose(actual, expected, rtol, atol):
    """torch.allclose: |a - b| <= atol + rtol * |b| per element. Returns
    (passed, largest |difference|, the largest allowed difference)."""
    a = np.asarray(actual).astype(np.float64)
    b = np.asarray(expected).astype(np.float64)
    diff = np.abs(a - b)
    allowed = atol + rtol * np.abs(b)
    return bool(np.all(diff <= allowed)), float(diff.max()), float(allowed.min())
