"""A kernel call hands its recording to the assembler's structures as values
(_nisa.build_recorded, asm/program_builder), writing no .nasm text. The
property under test is that the two ways in are one program: for the public
kernels of kernels/ (every value kind nisa.nki records: slices and access
patterns, indirect views, float and integer scalars, enums, booleans, lists,
lists of tensors, registers and runtime loops), the handed-over program is the program its to_nasm text
assembles to, byte for byte (.nbin with its line table, canonical text,
declarations). Errors still come from the text, worded and located as
before (test_nki_errors.py checks the messages themselves)."""
import os
import sys

import numpy as np
import pytest

import nisa
import nisa.nki
from nisa import _nisa
from nisa.nki import _record, _registers

nisa.nki.install()
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "kernels"))

import dma_compute  # noqa: E402
import indirect_dma  # noqa: E402
import layernorm  # noqa: E402
import loops  # noqa: E402
import matmul  # noqa: E402
import misuse  # noqa: E402
import range_select  # noqa: E402
import reshaped_indirect  # noqa: E402
import rmsnorm  # noqa: E402
import softmax  # noqa: E402
import tensor_add  # noqa: E402
import transpose2d  # noqa: E402
import views  # noqa: E402


def rng():
    return np.random.default_rng(25)


def f32(*shape):
    return rng().random(shape).astype(np.float32)


def indices(rows, count):
    """`count` row numbers below `rows` (distinct where there are enough rows)."""
    if count > rows:
        return rng().integers(0, rows, size=(count, 1)).astype(np.uint32)
    return rng().permutation(rows)[:count].reshape(count, 1).astype(np.uint32)


CALLS = {
    "tensor_add": (tensor_add.nki_tensor_add, lambda: (f32(256, 1024).astype(np.float16),) * 2),
    "softmax": (softmax.nki_softmax_kernel, lambda: (f32(256, 128),)),
    "layernorm": (layernorm.nki_layernorm_kernel_v1, lambda: (f32(256, 64), 1e-5, f32(64), f32(64))),
    "rmsnorm": (rmsnorm.nki_rmsnorm_kernel, lambda: (f32(256, 64), f32(64))),
    "matmul_tiled": (matmul.nki_matmul_tiled_, lambda: (f32(256, 128), f32(256, 1024))),
    "transpose2d_int8": (transpose2d.tensor_transpose2D_kernel_,
                         lambda: (np.arange(60, dtype=np.int8).reshape(5, 12), (3, 4))),
    "range_select_fp32_min": (range_select.causal_row_max, lambda: (f32(128, 256),)),
    "indirect_gather": (indirect_dma.indirect_gather_kernel, lambda: (f32(100, 32), indices(100, 128))),
    "indirect_scatter": (indirect_dma.indirect_scatter_kernel, lambda: (f32(64, 16), indices(200, 64), f32(200, 16))),
    "scalar_dynamic": (indirect_dma.scalar_dynamic_dma, lambda: (f32(512, 512),)),
    # index_stride (a runtime index on a reshaped view) and an .ap(...) index view
    "index_stride_scatter": (reshaped_indirect.topk_scatter,
                             lambda: (np.array([[1, 3], [4, 6], [11, 8], [14, 13]], np.int32), f32(4, 2), 4)),
    "index_stride_kv_read": (reshaped_indirect.kv_cache_read,
                             lambda: (f32(2, 6, 8), np.array([[5], [0], [11]], np.int32))),
    "dma_compute_tensor_list": (dma_compute.sum_kernel, lambda: (f32(64, 32), f32(64, 32).astype(np.float16))),
    "ap_on_a_view": (views.ap_on_a_view, lambda: (f32(128, 64),)),
    "psum_round_trip": (views.psum_round_trip, lambda: (f32(128, 64),)),
    # registers and runtime loops (issue 29): .reg, register operands, scalar_offset=REG
    "fori_loop_over_tiles": (loops.tiles_times_two_plus_one, lambda: (f32(512, 64), np.array([[256]], np.int32))),
    "while_loop": (loops.countdown_other_register, lambda: (np.array([[3]], np.int32),)),
    "dynamic_range_nested": (loops.nested, lambda: (np.array([[3]], np.int32), np.array([[2]], np.int32))),
    "register_moves": (loops.register_moves, lambda: (np.array([[3]], np.int32),)),
    "dynamic_range_register_offset": (loops.iota_by_register, lambda: (np.array([[5]], np.int32), 8)),
}


def handed_over(recorded):
    rec = recorded.recording
    arch, file, declarations = rec.handoff()
    return _nisa.build_recorded(arch, file, declarations, rec.instructions, nisa.nki.NkiTensor, _record.render_value,
                                nki=rec.nki, registers=rec.handoff_registers(), register_type=_registers.Register)


@pytest.mark.parametrize("name", sorted(CALLS))
def test_the_handed_over_program_is_the_program_of_the_text(name):
    kernel, make_args = CALLS[name]
    recorded = nisa.nki._record_call(kernel, make_args(), {})
    native = handed_over(recorded)
    assert native is not None, "the builder refused a program nisa.nki recorded"
    built = nisa.Program(native)
    from_text = nisa.assemble(recorded.text, file="<recorded>")
    assert built.tensors == from_text.tensors
    assert built.disassemble() == from_text.disassemble()
    assert built.to_nbin() == from_text.to_nbin()


def test_a_call_writes_no_text(monkeypatch):
    def no_text(*args):
        raise AssertionError("a call wrote the recording as text")

    monkeypatch.setattr(_record.Recording, "text", no_text)
    a = f32(128, 512)
    np.testing.assert_array_equal(tensor_add.nki_tensor_add(a, a), a + a)


def test_an_error_of_the_program_still_comes_from_its_text(monkeypatch):
    x = f32(128, 64)
    recorded = nisa.nki._record_call(misuse.shape_mismatch, (x,), {})
    assert handed_over(recorded) is None  # refused: the checker's rule holds without text
    with pytest.raises(nisa.Error) as from_text:
        nisa.nki._assemble_text_of(recorded)
    with pytest.raises(nisa.Error) as from_call:
        misuse.shape_mismatch(x)
    assert from_call.value.message == from_text.value.message
    assert from_call.value.file == misuse.__file__
    assert "recorded as: tensor_tensor" in from_call.value.message


def test_views_are_written_as_slices_where_slices_say_the_same():
    """The text's choice between slices and .ap (and the handoff's) is the
    assembler's rule: slices exactly when start, step and count fit each
    declared dimension (the partition dimension of a tile takes no step)."""
    shape = (256, 64)
    assert _nisa.view_slices(shape, False, 130 * 64 + 8, ((128, 10), (3, 5))) == ((130, 10, 2), (8, 5, 3))
    assert _nisa.view_slices(shape, True, 0, ((128, 10), (1, 64))) is None  # a step on a tile's partitions
    assert _nisa.view_slices(shape, False, 0, ((0, 128), (1, 64))) is None  # a broadcast
    assert _nisa.view_slices(shape, False, 0, ((64, 2**70), (1, 64))) is None  # beyond int64
