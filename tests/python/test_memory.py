"""Memory at nisa.run's boundaries (LANGUAGE.md 4, issue 25): an input no
instruction writes is read in place, others are copied once; outputs are
arrays that own the machine's memory (no copy out); input arrays are never
modified. Small arrays only: the sizes that matter are measured by
bench/memory_peak.py."""
import gc

import numpy as np
import pytest

import nisa

# y = x through SBUF and z = x straight from HBM to HBM: x is only read.
COPY = """\
.hbm x f32 [{rows}, 64] input
.hbm y f32 [{rows}, 64] output
.hbm z f32 [{rows}, 64] output
.sbuf t f32 [128, 64]
.rept i, {rows} / 128
dma_copy dst=t, src=x[i * 128:(i + 1) * 128, :]
tensor_scalar dst=t, data=t, op0=add, operand0=1.0
dma_copy dst=y[i * 128:(i + 1) * 128, :], src=t
.endr
dma_copy dst=z, src=x
"""

# An input the program overwrites (as scratch) before the output reads it.
WRITES_INPUT = """\
.hbm x f32 [128, 64] input
.hbm y f32 [128, 64] output
.sbuf t f32 [128, 64]
dma_copy dst=t, src=x
tensor_scalar dst=t, data=t, op0=multiply, operand0=3.0
dma_copy dst=x, src=t
dma_copy dst=y, src=x
"""


def values(rows):
    return np.arange(rows * 64, dtype=np.float32).reshape(rows, 64) / 7


# 128 rows: 32 KiB tensors (heap blocks); 1024 rows: 256 KiB (mapped pages).
@pytest.mark.parametrize("rows", [128, 1024])
def test_outputs_own_their_memory_and_outlive_everything(rows):
    x = values(rows)
    expected = x.copy()
    prog = nisa.assemble(COPY.format(rows=rows))
    out = nisa.run(prog, {"x": x})
    y, z = out["y"], out["z"]
    assert not np.shares_memory(z, x) and not np.shares_memory(y, z)
    assert y.flags.writeable and y.flags.c_contiguous and y.base is not None
    del prog, out, x
    gc.collect()
    np.testing.assert_array_equal(y, expected + 1)
    np.testing.assert_array_equal(z, expected)
    y[:] = -1  # the array is the caller's now
    assert y.sum() == -y.size


def test_writing_an_output_does_not_reach_a_later_run():
    prog = nisa.assemble(COPY.format(rows=128))
    x = values(128)
    first = nisa.run(prog, {"x": x})
    first["y"][:] = 99
    first["z"][:] = 99
    second = nisa.run(prog, {"x": x})
    np.testing.assert_array_equal(second["y"], x + 1)
    np.testing.assert_array_equal(second["z"], x)
    assert not np.shares_memory(first["y"], second["y"])


def test_read_only_and_misaligned_inputs_are_read_correctly():
    x = values(128)
    read_only = x.copy()
    read_only.flags.writeable = False
    np.testing.assert_array_equal(nisa.run(COPY.format(rows=128), {"x": read_only})["z"], x)
    raw = np.zeros(x.nbytes + 1, dtype=np.uint8)
    misaligned = np.frombuffer(raw.data, dtype=np.float32, count=x.size, offset=1).reshape(x.shape)
    raw[1:] = x.view(np.uint8).ravel()
    assert not misaligned.flags.aligned
    np.testing.assert_array_equal(nisa.run(COPY.format(rows=128), {"x": misaligned})["z"], x)


def test_an_input_the_program_writes_is_a_copy():
    x = np.ones((128, 64), dtype=np.float32)
    out = nisa.run(WRITES_INPUT, {"x": x})
    np.testing.assert_array_equal(out["y"], np.full_like(x, 3.0))
    np.testing.assert_array_equal(x, np.ones_like(x))


def test_inout_comes_back_as_a_new_array():
    prog = """\
.hbm a f32 [128, 64] inout
.sbuf t f32 [128, 64]
dma_copy dst=t, src=a
tensor_scalar dst=t, data=t, op0=add, operand0=1.0
dma_copy dst=a, src=t
"""
    a = values(128)
    before = a.copy()
    out = nisa.run(prog, {"a": a})["a"]
    assert not np.shares_memory(out, a)
    np.testing.assert_array_equal(out, before + 1)
    np.testing.assert_array_equal(a, before)


def test_bf16_output_is_an_array_of_its_own():
    prog = """\
.hbm x f32 [128, 64] input
.hbm y bf16 [128, 64] output
.sbuf t f32 [128, 64]
.sbuf u bf16 [128, 64]
dma_copy dst=t, src=x
tensor_copy dst=u, src=t
dma_copy dst=y, src=u
"""
    x = np.full((128, 64), 1.5, dtype=np.float32)
    y = nisa.run(prog, {"x": x})["y"]
    assert not np.shares_memory(y, x) and y.flags.writeable
    # float32 without ml_dtypes, its bfloat16 with it (LANGUAGE.md 4): 1.5 is 0x3FC0 in bf16.
    np.testing.assert_array_equal(y.astype(np.float32).view(np.uint32), np.full((128, 64), 0x3FC00000, np.uint32))


# Two f32 [128, 64] tensors: 65,536 bytes of HBM in all.
SMALL = """\
.hbm x f32 [128, 64] input
.hbm y f32 [128, 64] output
dma_copy dst=y, src=x
"""


def test_a_program_over_hbm_limit_is_refused_naming_the_option():
    x = values(128)
    with pytest.raises(nisa.Error) as e:
        nisa.run(SMALL, {"x": x}, hbm_limit=65535)
    assert "tensor 'y' brings the HBM tensors to 65536 bytes, over the run's HBM limit of 65535" in e.value.message
    assert "hbm_limit=" in e.value.message and e.value.line == 2
    for limit in (65536, "64K", "64KiB", "0.0625M", None):
        np.testing.assert_array_equal(nisa.run(SMALL, {"x": x}, hbm_limit=limit)["y"], x)
    assert nisa._nisa.default_hbm_limit() >= 1 << 30


@pytest.mark.parametrize("bad", [0, -1, True, 1.5, "", "64Q", "G", "-4G", "1 G", 1 << 70])
def test_bad_hbm_limit_is_an_error(bad):
    with pytest.raises(nisa.Error, match="hbm_limit: error: expected a size in bytes"):
        nisa.run(SMALL, {"x": values(128)}, hbm_limit=bad)


def test_a_64_gib_tensor_assembles_and_round_trips_through_nbin():
    # Declared, not allocated: nothing runs.
    prog = nisa.assemble("""\
.hbm x f32 [131072, 131072] input
.hbm y f32 [131072, 131072] output
.sbuf t f32 [128, 512]
dma_copy dst=t, src=x[130000:130128, 1000:1512]
dma_copy dst=y[130000:130128, 1000:1512], src=t
""")
    binary = prog.to_nbin()
    assert nisa.assemble(binary).to_nbin() == binary
    with pytest.raises(nisa.Error, match="64 GiB|68719476736"):
        nisa.assemble(".hbm x f32 [131072, 131073] input\n")
    with pytest.raises(nisa.Error, match="over the run's HBM limit of 68719476736"):
        nisa.run(prog, hbm_limit="64G")
