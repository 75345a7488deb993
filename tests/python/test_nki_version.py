"""nisa.nki.install(version=...) (LANGUAGE.md 2.1 and 4): the NKI version
whose instruction forms a kernel is recorded with. topk (SEMANTICS S4.36):
NKI 0.6 writes the K largest ascending on every partition of a 16-partition
group; NKI 0.7 (https://awsdocs-neuron.readthedocs-hosted.com/en/v2.33.0/nki/api/generated/nki.isa.topk.html)
writes result j at partition j % 16, column j // 16, and takes sorted=.
Expectations by hand: snake element 21 is 7, element 35 is 9, the rest 0
(element 41, beyond n = 40, is 11)."""
import numpy as np
import pytest

import nisa
import nisa.nki

nisa.nki.install()
import nki  # noqa: E402
import nki.isa as nisa_isa  # noqa: E402
import nki.language as nl  # noqa: E402


def snake():
    x = np.zeros((16, 3), dtype=np.float32)
    x[5, 1], x[3, 2], x[9, 2] = 7, 9, 11
    return x


def top2(x, **sorted_):
    src = nl.ndarray((16, 3), dtype=nl.bfloat16, buffer=nl.sbuf)
    nisa_isa.dma_copy(dst=src, src=x)
    v = nl.ndarray((16, 2), dtype=nl.bfloat16, buffer=nl.sbuf)
    i = nl.ndarray((16, 2), dtype=nl.uint32, buffer=nl.sbuf)
    nisa_isa.memset(dst=v, value=5.0)
    nisa_isa.memset(dst=i, value=3)
    nisa_isa.topk(val_dst=v, idx_dst=i, src=src, n=40, **sorted_)
    out_v = nl.ndarray((16, 2), dtype=nl.float32, buffer=nl.shared_hbm)
    out_i = nl.ndarray((16, 2), dtype=nl.uint32, buffer=nl.shared_hbm)
    nisa_isa.dma_copy(dst=out_v, src=v)
    nisa_isa.dma_copy(dst=out_i, src=i)
    return out_v, out_i


@nki.jit
def top2_default(x):
    return top2(x)


@nki.jit
def top2_sorted(x):
    return top2(x, sorted=True)


@pytest.fixture
def nki_07():
    nisa.nki.install(version="0.7")
    try:
        yield
    finally:
        nisa.nki.install()


def test_06_writes_ascending_on_every_partition():
    v, i = top2_default(snake())
    assert ".nki 0.6" in top2_default.to_nasm(snake()).splitlines()
    np.testing.assert_array_equal(v, np.tile([[7, 9]], (16, 1)))
    np.testing.assert_array_equal(i, np.tile([[21, 35]], (16, 1)))


def test_06_refuses_sorted():
    with pytest.raises(nisa.Error, match="'sorted' is NKI 0.7's"):
        top2_sorted(snake())


def test_07_writes_the_snake_layout(nki_07):
    expected_v = np.tile([[0, 5]], (16, 1)).astype(np.float32)
    expected_i = np.tile([[0, 3]], (16, 1)).astype(np.uint32)
    # sorted: result 0 = 9 (element 35) at partition 0, result 1 = 7 (21) at partition 1
    v, i = top2_sorted(snake())
    assert ".nki 0.7" in top2_sorted.to_nasm(snake()).splitlines()
    expected_v[0, 0], expected_i[0, 0], expected_v[1, 0], expected_i[1, 0] = 9, 35, 7, 21
    np.testing.assert_array_equal(v, expected_v)
    np.testing.assert_array_equal(i, expected_i)
    # unsorted (the model's order: snake index): 21 first, then 35
    v, i = top2_default(snake())
    expected_v[0, 0], expected_i[0, 0], expected_v[1, 0], expected_i[1, 0] = 7, 21, 9, 35
    np.testing.assert_array_equal(v, expected_v)
    np.testing.assert_array_equal(i, expected_i)


def test_unknown_version_is_refused():
    with pytest.raises(nisa.Error, match="NKI version '0.8' is not one of 0.6, 0.7"):
        nisa.nki.install(version="0.8")


# activation / activate2 engine= (NKI 0.7, https://awsdocs-neuron.readthedocs-hosted.com/en/v2.33.0/nki/api/generated/nki.isa.activation.html):
# the Scalar engine or GpSimd on NeuronCore-v4; no accumulator on GpSimd.
# relu(2x - 1) of [[1, -2, 3], [-0.5, 4, 0]] is [[1, 0, 5], [0, 7, 0]] by hand.
ACT_X = np.array([[1.0, -2.0, 3.0], [-0.5, 4.0, 0.0]], dtype=np.float32)
ACT_EXPECTED = np.array([[1, 0, 5], [0, 7, 0]], dtype=np.float32)


def relu_on(x, engine, **more):
    src = nl.ndarray((2, 3), dtype=nl.float32, buffer=nl.sbuf)
    nisa_isa.dma_copy(dst=src, src=x)
    dst = nl.ndarray((2, 3), dtype=nl.float32, buffer=nl.sbuf)
    nisa_isa.activation(dst=dst, op=nl.relu, data=src, scale=2.0, bias=-1.0, engine=engine, **more)
    out = nl.ndarray((2, 3), dtype=nl.float32, buffer=nl.shared_hbm)
    nisa_isa.dma_copy(dst=out, src=dst)
    return out


@nki.jit(platform_target="trn3")
def relu_gpsimd(x):
    return relu_on(x, nisa_isa.engine.gpsimd)


@nki.jit(platform_target="trn3")
def relu_gpsimd_reducing(x):
    res = nl.ndarray((2, 1), dtype=nl.float32, buffer=nl.sbuf)
    return relu_on(x, nisa_isa.gpsimd_engine, reduce_op=nl.add, reduce_res=res, reduce_cmd=nisa_isa.reduce_cmd.reset_reduce)


@nki.jit(platform_target="trn2")
def relu_gpsimd_trn2(x):
    return relu_on(x, nisa_isa.engine.gpsimd)


@nki.jit(platform_target="trn3")
def relu_scalar(x):
    return relu_on(x, nisa_isa.engine.scalar)


def test_07_activation_on_gpsimd(nki_07):
    np.testing.assert_array_equal(relu_gpsimd(ACT_X), ACT_EXPECTED)
    assert "engine=gpsimd" in relu_gpsimd.to_nasm(ACT_X)


def test_06_refuses_engine_gpsimd():
    with pytest.raises(nisa.Error, match="'engine' is NKI 0.7's"):
        relu_gpsimd(ACT_X)


def test_06_takes_the_scalar_default():
    np.testing.assert_array_equal(relu_scalar(ACT_X), ACT_EXPECTED)


def test_07_gpsimd_has_no_accumulator(nki_07):
    with pytest.raises(nisa.Error, match="'reduce_op' is not available to activation on the gpsimd engine"):
        relu_gpsimd_reducing(ACT_X)


def test_07_gpsimd_activation_needs_trn3(nki_07):
    with pytest.raises(nisa.Error, match="activation on the gpsimd engine needs NeuronCore-v4"):
        relu_gpsimd_trn2(ACT_X)
