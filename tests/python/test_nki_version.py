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
