"""The NKI 0.6 names nki-library uses (issue 27), each as NKI documents it
(`nki/api/nki/language/__init__.py`, `nki/api/nki/isa/__init__.py`):
NKIObject, the engine constants and nki.isa.constants, nki.dtype,
tile_size's SBUF figures, ndarray(address=), shared_identity_matrix,
shared_constant, enums given as integers, returned HBM views, runtime
indices on views, and nisa.nki's own calls reachable from `nki`."""
import dataclasses
import os
import re
import sys

import numpy as np
import pytest

import nisa
import nisa.nki

nisa.nki.install()
KERNELS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "kernels")
sys.path.insert(0, KERNELS)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import names  # noqa: E402
import nkilib_style  # noqa: E402
from marked_lines import assert_located  # noqa: E402

NAMES_FILE = os.path.join(KERNELS, "names.py")


def raised_at(kernel, line_name, *args):
    with pytest.raises(nisa.Error) as info:
        kernel(*args)
    assert_located(info.value, NAMES_FILE, line_name)
    return info.value.message


def rows(shape, seed=27):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


# --- NKIObject ---------------------------------------------------------------------
def test_nkiobject_dataclass_takes_unannotated_fields_as_keywords():
    import nki.language as nl

    @dataclasses.dataclass
    class Section(nl.NKIObject):
        index = None
        offset = 0
        size: int = 4

        def end(self):
            return self.offset + self.size

    s = Section(index=3, offset=8)
    assert (s.index, s.offset, s.size, s.end()) == (3, 8, 4, 12)
    assert (Section().index, Section().offset) == (None, 0)  # the written values are the defaults
    assert [f.name for f in dataclasses.fields(Section)] == ["size", "index", "offset"]
    with pytest.raises(TypeError):
        Section(idx=3)  # a dataclass still refuses a name it does not have


def test_nkiobject_without_dataclass_sets_its_keywords():
    import nki.language as nl

    class Dims(nl.NKIObject):
        T: int
        H: int

        def derive(self):
            self.tiles = self.T // 2

    d = Dims(T=8, H=3)
    d.derive()
    assert (d.T, d.H, d.tiles) == (8, 3, 4)
    assert isinstance(d, nl.NKIObject)


def test_nkiobject_frozen_dataclass_with_post_init_and_methods_kept():
    cfg = nkilib_style.ScaleBiasConfig(scale=2.0, bias=0.5)
    assert (cfg.scale, cfg.bias, cfg.tile_rows) == (2.0, 0.5, 128)  # tile_rows from __post_init__: tile_size.pmax
    with pytest.raises(dataclasses.FrozenInstanceError):
        cfg.scale = 3.0
    assert hash(cfg) == hash(nkilib_style.ScaleBiasConfig(scale=2.0, bias=0.5))
    assert nkilib_style.Dims(rows=256, cols=4).n_tiles(128) == 2


# --- nki.isa names -------------------------------------------------------------------
def test_engine_constants_are_the_engine_enum_members():
    import nki.isa as nki_isa
    assert nki_isa.vector_engine is nki_isa.engine.vector and nki_isa.engine.vector.value == 5
    assert nki_isa.scalar_engine is nki_isa.engine.scalar and nki_isa.engine.scalar.value == 2
    assert nki_isa.gpsimd_engine is nki_isa.engine.gpsimd and nki_isa.engine.gpsimd.value == 3
    assert nki_isa.tensor_engine is nki_isa.engine.tensor and nki_isa.engine.tensor.value == 1
    assert nki_isa.unknown_engine is nki_isa.engine.unknown and nki_isa.engine.unknown.value == 0
    assert {e.name: e.value for e in nki_isa.dma_engine} == {"dma": 1, "gpsimd_dma": 2}


def test_kernel_with_engine_constants_computes_the_same_values():
    a = rows((128, 32))
    out = names.engine_constants(a)
    np.testing.assert_array_equal(out, (a * np.float32(3)) + a)


def test_isa_constants_module_imports_the_enums():
    from nki.isa.constants import dge_mode, matmul_perf_mode, oob_mode
    import nki.isa as nki_isa
    from nki.isa import constants
    assert dge_mode is nki_isa.dge_mode and oob_mode is nki_isa.oob_mode
    assert matmul_perf_mode is nki_isa.matmul_perf_mode and constants.engine is nki_isa.engine
    assert (dge_mode.none.value, dge_mode.hwdge.value, oob_mode.skip.value) == (3, 2, 1)
    assert sys.modules["nki.isa.constants"] is constants


def test_enum_parameters_take_nki_integer_values():
    a = rows((64, 16))
    import nki
    text = nki.to_nasm(names.enums_as_integers, a)
    assert "dge_mode=none" in text and "oob_mode=error" in text and "reduce_cmd=reset_reduce" in text
    np.testing.assert_allclose(names.enums_as_integers(a)[:, 0], a.sum(axis=1), rtol=1e-5, atol=1e-5)


def test_enum_integer_outside_the_enum_is_refused_at_its_line():
    message = raised_at(names.enum_integer_out_of_range, "enum_integer_out_of_range", rows((4, 4)))
    assert "dge_mode=9 is not a dge_mode value" in message and "3 (none)" in message


# --- nki.dtype, tile_size --------------------------------------------------------------
def test_nki_dtype_module_holds_the_dtypes():
    import nki
    import nki.dtype
    import nki.language as nl
    assert nki.dtype.bfloat16 == nl.bfloat16 == "bfloat16" and nki.dtype.float32 == nl.float32
    assert nki.dtype.bool_ == nl.bool_ and sys.modules["nki.dtype"] is nki.dtype


@pytest.mark.parametrize("arch,per_partition", [("trn1", 192 * 1024), ("trn2", 224 * 1024), ("trn3", 256 * 1024)])
def test_tile_size_sbuf_figures_are_the_targets(arch, per_partition):
    # SEMANTICS S1.1: 24 MiB SBUF on trn1, 28 MiB on trn2, 32 MiB on trn3, in 128 partitions
    import nki
    seen = []
    nki.jit(names.sbuf_figures.fn, platform_target=arch)(rows((4, 4)), seen)
    assert seen == [(per_partition, per_partition, per_partition // 4, per_partition * 128)]


def test_tile_size_outside_a_kernel_follows_the_platform_override(monkeypatch):
    import nki.language as nl
    monkeypatch.setenv("NEURON_PLATFORM_TARGET_OVERRIDE", "gen2")
    assert nl.tile_size.total_available_sbuf_size == 192 * 1024
    monkeypatch.delenv("NEURON_PLATFORM_TARGET_OVERRIDE")
    assert nl.tile_size.total_available_sbuf_size == 224 * 1024 and nl.tile_size.pmax == 128


# --- ndarray(address=) ----------------------------------------------------------------
def test_address_places_the_tile_exactly():
    a = rows((128, 64))
    import nki
    text = nki.to_nasm(names.placed_double, a)
    assert re.search(r"^\.sbuf t f32 \[128, 64\] @ 4096$", text, re.M), text
    # the automatic tile keeps clear of the placed one while both are in use
    u = re.search(r"^\.sbuf u f32 \[128, 64\] @ (\d+)$", text, re.M)
    assert u and not 4096 - 256 < int(u.group(1)) < 4096 + 256, text
    np.testing.assert_array_equal(names.placed_double(a), a * 2)


def test_overlapping_placed_tiles_in_use_together_are_refused_at_the_later_one():
    message = raised_at(names.placed_overlapping, "placed_overlapping", rows((128, 64)))
    assert "bytes 1200..1455" in message and "placed at (0, 1024)" in message


def test_placed_tiles_may_share_bytes_one_after_the_other():
    a = rows((128, 64))
    out, out2 = names.placed_one_after_the_other(a)
    np.testing.assert_array_equal(out, a + np.float32(1))
    # u's bytes 640.. of each partition are t's elements 32..63, as t left them
    np.testing.assert_array_equal(out2, (a + np.float32(1))[:, 32:64])


def test_address_past_the_memory_is_refused():
    message = raised_at(names.placed_past_the_end, "placed_past_the_end", rows((128, 64)))
    assert "end at byte 16512" in message and "16384 bytes of each psum partition on trn2" in message


def test_address_with_a_partition_offset_and_on_hbm_are_refused():
    assert "start at partition 0" in raised_at(names.placed_at_partition_32, "placed_at_partition_32", rows((64, 64)))
    assert "SBUF or PSUM tile" in raised_at(names.placed_hbm, "placed_hbm", rows((64, 64)))


# --- shared_identity_matrix, shared_constant --------------------------------------------
@pytest.mark.parametrize("n,dtype,np_dtype", [(128, "float32", np.float32), (5, "int32", np.int32),
                                              (64, "uint8", np.uint8), (3, "float16", np.float16)])
def test_identity_matrix_is_np_eye(n, dtype, np_dtype):
    out = names.identity(rows((1, 1)), n, dtype)
    assert out.dtype == np_dtype and out.shape == (n, n)
    np.testing.assert_array_equal(out, np.eye(n, dtype=np_dtype))


def test_identity_matrix_into_dst_overwrites_every_element():
    np.testing.assert_array_equal(names.identity_into(rows((1, 1))), np.eye(16, dtype=np.float32))


def test_identity_matrix_transposes_by_matmul():
    a = rows((128, 48))
    np.testing.assert_array_equal(names.transpose_by_identity(a), a.T)


def test_identity_matrix_larger_than_the_partitions_is_refused():
    assert "1 to 128" in raised_at(names.identity_too_big, "identity_too_big", rows((1, 1)))


def test_shared_constant_from_an_array_and_from_a_npy_file(tmp_path):
    a = rows((16, 8))
    constant = np.arange(128, dtype=np.float32).reshape(16, 8)
    np.testing.assert_array_equal(names.plus_constant(a, {"c": constant}), a + constant)
    path = tmp_path / "c.npy"
    np.save(path, constant * 2)
    np.testing.assert_array_equal(names.plus_constant(a, {"c": path}), a + constant * 2)
    import nki
    assert re.search(r"^\.hbm c f32 \[16, 8\] input$", nki.to_nasm(names.plus_constant, a, {"c": constant}), re.M)


def test_writing_a_shared_constant_is_refused():
    assert "read-only" in raised_at(names.writes_constant, "writes_constant", rows((1, 1)))


# --- returning views ---------------------------------------------------------------------
def test_a_returned_reshape_is_the_array_reshaped():
    a = rows((128, 64))
    out = names.returns_reshaped(a)
    assert out.shape == (1024, 8)
    np.testing.assert_array_equal(out, (a + np.float32(1)).reshape(1024, 8))


def test_returned_slices_of_a_parameter_and_an_output():
    a = rows((16, 10))
    last_rows, odd_columns = names.returns_views(a)
    np.testing.assert_array_equal(last_rows, a[14:16])
    np.testing.assert_array_equal(odd_columns, a[:, 1:10:2])
    assert odd_columns.flags.writeable and not np.shares_memory(odd_columns, last_rows)


def test_returning_a_tile_is_refused():
    assert "returns HBM tensors or views" in raised_at(names.returns_a_tile, "returns_a_tile", rows((4, 4)))


# --- runtime indices on views ---------------------------------------------------------------
def test_vector_offset_on_a_slice_scales_by_the_rows_of_the_tensor():
    data = rows((32, 16))
    indices = np.array([[5], [0], [31], [7]], dtype=np.uint32)
    np.testing.assert_array_equal(names.gather_from_slice(data, indices), data[[5, 0, 31, 7], 0:8])


def test_scalar_offset_on_a_reshaped_view_counts_in_the_views_dimension():
    data = rows((12, 8))
    for start in (0, 3, 10):
        out = names.scalar_index_on_reshaped(data, np.array([[start]], dtype=np.int32))
        np.testing.assert_array_equal(out, data[start:start + 2])


def test_an_indirect_dim_the_view_does_not_have_is_refused():
    message = raised_at(names.indirect_dim_outside_the_view, "indirect_dim_outside", rows((4, 8)),
                        np.zeros((1, 1), np.int32))
    assert "indirect_dim=2: not a dimension of the view" in message


def test_a_view_stride_no_declared_dimension_has_moves_by_that_stride():
    data = rows((2, 4, 8))
    indices = np.array([[5], [0], [7], [2]], np.uint32)
    r = indices[:, 0]  # row r of data.reshape((8, 8)) is data[r // 4, r % 4]
    np.testing.assert_array_equal(names.gather_rows_of_reshaped(data, indices), data[r // 4, r % 4])


# --- nisa.nki's calls from `nki` -------------------------------------------------------------
def test_everything_is_reachable_from_nki_alone():
    import nki  # a kernel module's `import nki.isa as nisa` hides the nisa package: nki has it all
    a = rows((128, 64))
    assert names.placed_double.to_nasm(a) == nki.to_nasm(names.placed_double, a) == nisa.nki.to_nasm(
        names.placed_double, a)
    np.testing.assert_array_equal(nki.simulate(names.placed_double)(a), a * 2)
    np.testing.assert_array_equal(nki.cpu_simulate(names.placed_double)[1](a=a), a * 2)
    out, report = names.placed_double.run(a, profile=True)
    np.testing.assert_array_equal(out, a * 2)
    assert report["engines"]["vector"]["instructions"] == 1 and report["engines"]["dma"]["instructions"] == 2
    assert nki.Error is nisa.Error and nki.install is nisa.nki.install
    with pytest.raises(nki.Error, match=r"kernel\[3\]: NKI 0.6's launch kernel\[n\] takes one number"):
        nki.cpu_simulate(names.placed_double)[3]


# --- a kernel module in nki-library's style ----------------------------------------------------
def test_nkilib_style_kernel_against_numpy():
    x = rows((256, 48))
    cfg = nkilib_style.ScaleBiasConfig(scale=1.5, bias=-0.25)
    out = nkilib_style.scale_bias_transpose(x, cfg)
    expected = (x * np.float32(1.5) + np.float32(-0.25)).T.reshape(-1)  # float32 multiply, then add
    assert out.shape == (48 * 256,)
    np.testing.assert_array_equal(out, expected)
    import nki
    text = nkilib_style.scale_bias_transpose.to_nasm(x, cfg)
    banks = re.findall(r"^\.psum transposed\S* f32 \[48, 128\] @ (\d+)$", text, re.M)
    assert sorted(set(banks)) == ["0", "2048"], text
    assert "dge_mode=none" in text and nki.to_nasm(nkilib_style.scale_bias_transpose, x, cfg) == text


# --- core_barrier at one core, nc_version ordering, neuronxcc.nki -------------------
def test_core_barrier_at_one_core_waits_for_nobody():
    # cores=(0, 1) at a launch of one core: the only core present is this one (docs/ISA.md core_barrier)
    import nki
    a = rows((64, 8))
    np.testing.assert_array_equal(names.barrier_between_writes(a), a + np.float32(1))
    text = nki.to_nasm(names.barrier_between_writes, a)
    assert text.count("core_barrier data=out0, cores=[0, 1], engine=gpsimd") == 2, text


def test_core_barrier_arguments_are_checked_as_nki_documents():
    assert "'data' is 't' in sbuf; core_barrier allows hbm" in raised_at(names.barrier_on_a_tile, "barrier_on_a_tile",
                                                                         rows((8, 8)))


@pytest.mark.parametrize("arch, factor", [("trn1", 2), ("trn2", 3), ("trn3", 4)])
def test_nc_versions_are_ordered_and_compare_with_ints(monkeypatch, arch, factor):
    import nki.isa as nki_isa
    v = nki_isa.nc_version
    assert v.gen2 < v.gen3 < v.gen4 and v.gen3 >= 3 and v.gen2 <= 2 and v.gen4 > 3
    assert str(v.gen3) == "nc_version.gen3"
    monkeypatch.setenv("NEURON_PLATFORM_TARGET_OVERRIDE", arch)
    a = rows((16, 8))
    np.testing.assert_array_equal(names.version_branches(a), a * np.float32(factor))


def test_neuronxcc_nki_is_the_same_modules():
    import neuronxcc.nki.typing as nt
    import nki
    import nki.typing
    import neuronxcc.nki.isa
    import neuronxcc.nki.language
    assert nt is nki.typing and neuronxcc.nki.isa is sys.modules["nki.isa"]
    assert neuronxcc.nki.language is sys.modules["nki.language"]

    def annotated(x: nt.mutable_tensor, y: nt.tensor[128, 64]):  # annotations only, as router_topk writes them
        return x

    assert annotated(1, 2) == 1
