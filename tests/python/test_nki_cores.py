"""Kernels launched on two NeuronCores (issue 28; NKI 0.6 kernel[2], LNC=2):
the launch forms and their limits, nl.program_id / num_programs /
program_ndim, work split between the cores over shared HBM, sendrecv,
core_barrier, private HBM, and the errors of a two-core kernel, each at the
kernel's line. Expected values are NumPy formulas of what each kernel
(kernels/cores.py) does."""
import os
import re
import sys

import numpy as np
import pytest

import nisa
import nisa.nki
from nisa import _nisa
from nisa.nki import _record, _registers

nisa.nki.install()
KERNELS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "kernels")
sys.path.insert(0, KERNELS)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import cores  # noqa: E402
from marked_lines import assert_located, marked_line  # noqa: E402

import nki  # noqa: E402
import nki.language as nl  # noqa: E402

CORES_FILE = os.path.join(KERNELS, "cores.py")


def rows(shape, seed=5):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def raised_at(call, line_name):
    with pytest.raises(nisa.Error) as info:
        call()
    assert_located(info.value, CORES_FILE, line_name)
    return info.value.message


# --- launches ----------------------------------------------------------------
def test_launch_facts_at_each_launch():
    a = rows((2, 4))
    # (program_id, num_programs(), num_programs(0), program_ndim()) per core (NKI 0.6 lnc.rst, LANG program_ndim)
    np.testing.assert_array_equal(cores.launch_facts[2](a), [[0, 2, 2, 1], [1, 2, 2, 1]])
    np.testing.assert_array_equal(cores.launch_facts[1](a), [[0, 1, 1, 1]])
    np.testing.assert_array_equal(cores.launch_facts(a), [[0, 1, 1, 0]])
    np.testing.assert_array_equal(nki.cpu_simulate(cores.launch_facts)[2](a=a), [[0, 2, 2, 1], [1, 2, 2, 1]])
    np.testing.assert_array_equal(nki.simulate(cores.launch_facts[2])(a), [[0, 2, 2, 1], [1, 2, 2, 1]])
    np.testing.assert_array_equal(cores.launch_facts[nl.nc(2)](a), [[0, 2, 2, 1], [1, 2, 2, 1]])


def test_a_launch_leaves_the_kernel_as_it_was():
    a = rows((2, 4))
    two = cores.launch_facts[2]
    assert two is not cores.launch_facts and two.fn is cores.launch_facts.fn
    np.testing.assert_array_equal(cores.launch_facts(a), [[0, 1, 1, 0]])


def test_outside_a_kernel_there_is_one_program():
    assert (nl.program_id(), nl.num_programs(), nl.num_programs(axes=None), nl.program_ndim()) == (0, 1, 1, 0)


@pytest.mark.parametrize("grid, says", [
    (3, r"kernel\[3\]: NKI 0.6's launch kernel\[n\] takes one number, the count of NeuronCores \(LNC\): 1 to 2 on trn2"),
    (0, r"kernel\[0\]: NKI 0.6's launch kernel\[n\] takes one number"),
    ((2, 2), r"launch grid \(2, 2\): NKI 0.6's launch kernel\[n\] takes one number.*not NKI 0.6's"),
    ((2,), r"launch grid \(2,\): NKI 0.6's launch kernel\[n\] takes one number"),
    (2.0, r"launch grid 2.0: NKI 0.6's launch kernel\[n\] takes one number"),
    (True, r"launch grid True: NKI 0.6's launch kernel\[n\] takes one number"),
])
def test_launch_grids_nki_does_not_take_are_refused(grid, says):
    with pytest.raises(nisa.Error, match=says) as info:
        cores.launch_facts[grid]
    assert info.value.exit_status == 2


def test_trn1_runs_one_core():
    trn1 = nki.jit(platform_target="trn1")(cores.launch_facts.fn)
    np.testing.assert_array_equal(trn1[1](rows((1, 4))), [[0, 1, 1, 1]])
    with pytest.raises(nisa.Error, match=r"kernel\[2\]: .*: 1 to 1 on trn1"):
        trn1[2]


def test_the_arch_is_checked_again_at_the_call(monkeypatch):
    two = cores.launch_facts[2]
    monkeypatch.setenv("NEURON_PLATFORM_TARGET_OVERRIDE", "trn1")
    with pytest.raises(nisa.Error, match=r"kernel\[2\]: .*: 1 to 1 on trn1"):
        two(rows((2, 4)))


def test_program_id_takes_axis_0_only():
    message = raised_at(lambda: cores.program_id_axis_1[2](rows((2, 4))), "program_id_axis_1")
    assert "nl.program_id(axis=1): the launch grid has one axis, 0" in message


def test_legacy_grids_of_several_programs_per_core_are_refused():
    with pytest.raises(nisa.Error, match=r"nc\(2\) \* \.\.\.: a launch grid of several programs per NeuronCore"):
        nl.nc(2) * 2


# --- two cores at work ---------------------------------------------------------
def test_rows_split_by_program_id_into_a_shared_output():
    a = rows((128, 16))
    expected = np.concatenate([a[:64] * np.float32(2), a[64:] * np.float32(3)])
    np.testing.assert_array_equal(cores.scaled_halves[2](a), expected)
    # at one core the one program scales everything by 2
    np.testing.assert_array_equal(cores.scaled_halves(a), a * np.float32(2))


@pytest.mark.parametrize("engine", ["dma", "gpsimd_dma"])
def test_sendrecv_swaps_the_cores_tiles(engine):
    a = rows((64, 8))
    expected = np.concatenate([a[32:], a[:32]]) + np.float32(1)
    np.testing.assert_array_equal(cores.swapped_halves[2](a, engine), expected)
    text = cores.swapped_halves[2].to_nasm(a, engine)
    assert f"sendrecv src=mine, dst=theirs, send_to_rank=1, recv_from_rank=1, pipe_id=0, dma_engine={engine}" in text
    assert f"sendrecv src=mine, dst=theirs, send_to_rank=0, recv_from_rank=0, pipe_id=0, dma_engine={engine}" in text


def test_sendrecv_takes_the_dma_engine_as_its_number():
    import nki.isa as nisa_isa
    assert [e.value for e in nisa_isa.dma_engine] == [1, 2]  # NKI 0.6's values
    a = rows((8, 4))

    @nki.jit
    def numbered(a):
        out = nl.ndarray(a.shape, a.dtype, buffer=nl.shared_hbm)
        i = nl.program_id(0)
        t = nl.ndarray((4, 4), a.dtype, buffer=nl.sbuf)
        r = nl.ndarray((4, 4), a.dtype, buffer=nl.sbuf)
        nisa_isa.dma_copy(dst=t, src=a[4 * i:4 * i + 4, :])
        nisa_isa.sendrecv(t, r, 1 - i, 1 - i, 3, 2)
        nisa_isa.dma_copy(dst=out[4 * i:4 * i + 4, :], src=r)
        return out

    np.testing.assert_array_equal(numbered[2](a), np.concatenate([a[4:], a[:4]]))
    assert "pipe_id=3, dma_engine=gpsimd_dma" in numbered[2].to_nasm(a)


def test_barrier_then_read_the_other_core_s_half():
    a = rows((32, 8))
    squares = a * a
    expected = np.concatenate([squares[16:] - a[:16], squares[:16] - a[16:]])
    np.testing.assert_array_equal(cores.barrier_then_other_half[2](a), expected)


def test_private_hbm_is_each_core_s_own():
    a = rows((2, 8))
    np.testing.assert_array_equal(cores.private_scratch[2](a), a)  # each core reads back its own row


def test_a_parameter_written_by_both_cores_reaches_the_caller():
    a = rows((16, 4))
    before = a.copy()
    out = cores.halves_in_place[2](a)
    np.testing.assert_array_equal(a, -before)
    np.testing.assert_array_equal(out, -before)


def test_a_shared_constant_is_one_tensor_for_both_cores():
    a = rows((8, 4))
    values = rows((8, 4), seed=9)
    np.testing.assert_array_equal(cores.shared_constant_added[2](a, values.tolist()), a + values)


@pytest.mark.parametrize("n", [1, 5])
def test_a_core_given_no_rows_takes_an_empty_view(n):
    a = rows((n, 4))
    np.testing.assert_array_equal(cores.last_core_takes_the_rest[2](a), a + np.float32(1))


def test_an_instruction_refuses_an_empty_view():
    message = raised_at(lambda: cores.copies_an_empty_view(rows((4, 4))), "empty_view")
    assert "recorded as: dma_copy" in message


# --- the program -------------------------------------------------------------------
def test_the_text_has_a_section_per_core_after_the_shared_tensors():
    a = rows((64, 8))
    text = cores.swapped_halves[2].to_nasm(a)
    lines = text.splitlines()
    assert lines[1:5] == [".arch trn2", ".nki 0.6", f'.file "{cores.__file__}"', ".cores 2"]
    core_0, core_1 = lines.index(".core 0"), lines.index(".core 1")
    assert [line for line in lines[5:core_0]] == [".hbm a f32 [64, 8] input", ".hbm out0 f32 [64, 8] output"]
    # each core declares its own tiles, under the same names, with the kernel lines of their ndarray calls
    for section in (lines[core_0:core_1], lines[core_1:]):
        declared = [line for line in section if line.startswith(".sbuf")]
        assert [d.split(" @ ")[0] for d in declared] == [".sbuf mine f32 [32, 8]", ".sbuf theirs f32 [32, 8]"]
        assert section[1] == f".loc {marked_ndarray_line('mine = nl.ndarray', 'swapped_halves')}"
    assert ".cores" not in cores.swapped_halves[1].to_nasm(a) and ".core" not in cores.swapped_halves.to_nasm(a)


def marked_ndarray_line(text, kernel):
    with open(CORES_FILE) as f:
        source = f.read().splitlines()
    start = next(k for k, line in enumerate(source) if line.startswith(f"def {kernel}("))
    return next(k for k in range(start, len(source)) if text in source[k]) + 1


@pytest.mark.parametrize("kernel, make_args", [
    (cores.swapped_halves, lambda: (rows((64, 8)),)),
    (cores.barrier_then_other_half, lambda: (rows((32, 8)),)),
    (cores.private_scratch, lambda: (rows((2, 8)),)),
    (cores.shared_constant_added, lambda: (rows((8, 4)), rows((8, 4), seed=1).tolist())),
])
def test_the_handed_over_program_is_the_program_of_the_text(kernel, make_args):
    recorded = nisa.nki._record_call(kernel[2], make_args(), {})
    rec = recorded.recording
    arch, file, declarations = rec.handoff()
    native = _nisa.build_recorded(arch, file, declarations, [], nisa.nki.NkiTensor, _record.render_value,
                                  rec.sections(), nki=rec.nki, register_type=_registers.Register)
    assert native is not None, "the builder refused a program nisa.nki recorded"
    built = nisa.Program(native)
    from_text = nisa.assemble(recorded.text, file="<recorded>")
    assert built.tensors == from_text.tensors
    assert built.disassemble() == from_text.disassemble()
    assert built.to_nbin() == from_text.to_nbin()


def test_a_two_core_call_writes_no_text(monkeypatch):
    def no_text(*args):
        raise AssertionError("a call wrote the recording as text")

    monkeypatch.setattr(nisa.nki._cores.CoreRecordings, "text", no_text)
    a = rows((64, 8))
    np.testing.assert_array_equal(cores.swapped_halves[2](a), np.concatenate([a[32:], a[:32]]) + np.float32(1))


# --- errors, each at the kernel's line ---------------------------------------------
def test_a_sendrecv_whose_peer_never_comes():
    message = raised_at(lambda: cores.sendrecv_on_core_0_only[2](rows((8, 4))), "sendrecv_alone")
    # the message names the other core's last line too
    assert re.search(rf"never met: core 1's instructions end at line {marked_line(CORES_FILE, 'core_1_ends')}\b",
                     message), message
    assert "recorded as: sendrecv" in message


def test_a_barrier_one_core_never_reaches():
    message = raised_at(lambda: cores.barrier_on_core_1_only[2](rows((8, 4))), "barrier_alone")
    assert "core_barrier of core 1" in message and "never met: core 0's instructions end at line" in message


def test_sendrecv_sides_of_different_shapes():
    message = raised_at(lambda: cores.sendrecv_shapes_differ[2](rows((8, 4))), "sendrecv_shapes")
    assert "[2, 4]" in message and "[4, 4]" in message, message


def test_a_sendrecv_to_its_own_core():
    message = raised_at(lambda: cores.sendrecv_to_itself[2](rows((8, 4))), "sendrecv_itself")
    assert "send_to_rank" in message, message


def test_a_shared_hbm_tensor_made_with_another_shape_on_core_1():
    message = raised_at(lambda: cores.shared_shapes_differ[2](rows((8, 4))), "shared_shapes")
    assert "core 1 makes shared_hbm tensor number 1 as nl.ndarray (4, 4) float32, but core 0 made it as " \
           f"nl.ndarray (8, 4) float32 at line {marked_line(CORES_FILE, 'shared_shapes')}" in message


def test_a_shared_hbm_tensor_core_0_never_made():
    message = raised_at(lambda: cores.more_shared_on_core_1[2](rows((8, 4))), "shared_extra")
    assert "core 1 makes shared_hbm tensor number 2, but core 0 made 1" in message


def test_cores_returning_different_tensors():
    with pytest.raises(nisa.Error, match="returns other tensors on core 1 than on core 0") as info:
        cores.returns_differ[2](rows((8, 4)), rows((8, 4)))
    assert info.value.line == cores.returns_differ.fn.__code__.co_firstlineno


def test_returning_a_private_hbm_tensor_at_two_cores():
    with pytest.raises(nisa.Error, match=r"which each core has its own of \(buffer hbm\): at a launch of 2 cores a "
                                         r"kernel returns nl.shared_hbm tensors") as info:
        cores.returns_private[2](rows((8, 4)))
    assert info.value.line == cores.returns_private.fn.__code__.co_firstlineno
    np.testing.assert_array_equal(cores.returns_private(rows((8, 4))), rows((8, 4)))  # at one core it is the output


def test_a_shared_constant_that_differs_between_cores():
    message = raised_at(lambda: cores.constant_differs[2](rows((2, 2)), [[1.0, 2.0]]), "constant_differs")
    assert "core 1's nl.shared_constant holds other values than core 0's" in message


@pytest.mark.parametrize("op_name, op", [("add", np.add), ("maximum", np.maximum), ("minimum", np.minimum)])
def test_sendrecv_compute_reduces_the_cores_tiles(op_name, op):
    a = rows((64, 8))
    a[3, 2] = np.nan  # NaN propagates through maximum and minimum (SEMANTICS S16.6)
    half = op(a[:32], a[32:])
    np.testing.assert_array_equal(cores.all_reduced_halves[2](a, op_name), np.concatenate([half, half]))
