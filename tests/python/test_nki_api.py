"""nisa.nki's API (LANGUAGE.md 4): install, jit, to_nasm and its round trip,
views as .nasm operands, the older return-value style, tile reuse, and
nki.isa against the ISA spec. Expected values are NumPy formulas."""
import json
import os
import sys

import numpy as np

import nisa
import nisa.nki

nki = nisa.nki.install()
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "kernels"))

import tensor_add  # noqa: E402
import views  # noqa: E402

SOURCE = os.environ.get("NISA_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))


def test_install_registers_the_nki_modules():
    import nki as imported
    import nki.isa
    import nki.language
    assert imported is nki
    assert sys.modules["nki.isa"] is nisa.nki.isa and sys.modules["nki.language"] is nisa.nki.language
    assert nki.language.float32 == "float32" and nki.language.tile_size.pmax == 128
    assert nki.isa.reduce_cmd.reset_reduce.name == "reset_reduce"


def test_to_nasm_round_trip():
    a = np.random.default_rng(1).random((256, 512)).astype(np.float16)
    b = np.random.default_rng(2).random((256, 512)).astype(np.float16)
    text = nisa.nki.to_nasm(tensor_add.nki_tensor_add, a, b)
    assert ".arch trn1" in text  # @nki.jit(platform_target="trn1")
    assert ".hbm a_input f16 [256, 512] input" in text and ".hbm out0 f16 [256, 512] output" in text
    assert "tensor_tensor dst=c_tile, data1=a_tile, data2=b_tile, op=add" in text
    program = nisa.assemble(text)
    assert len(program) == 8  # 2 tiles x (2 loads, 1 add, 1 store), unrolled
    assert nisa.assemble(program.disassemble()).to_nbin() == program.to_nbin()
    ran = nisa.run(text, {"a_input": a, "b_input": b})["out0"]
    np.testing.assert_array_equal(ran, tensor_add.nki_tensor_add(a, b))
    np.testing.assert_array_equal(ran, (a.astype(np.float32) + b.astype(np.float32)).astype(np.float16))


def test_line_table_names_the_kernel_lines():
    a = np.zeros((128, 512), np.float16)
    text = nisa.nki.to_nasm(tensor_add.nki_tensor_add, a, a)
    with open(tensor_add.__file__) as f:
        source = f.read().splitlines()
    lines = text.splitlines()
    assert f'.file "{tensor_add.__file__}"' in lines
    following, checked = None, 0  # .loc N names the next instruction's line, N + 1 the one after (LANGUAGE.md 2.1)
    for line in lines:
        if line.startswith(".loc "):
            following = int(line.split()[1])
        elif line and not line.startswith((".", ";")):
            assert f"nisa.{line.split()[0]}(" in source[following - 1]
            following, checked = following + 1, checked + 1
    assert checked == 4


def test_integer_index_and_ds():
    x = np.arange(3 * 128 * 64, dtype=np.float32).reshape(3, 128, 64)
    out = views.batch_rows(x, 2, 10, 100)
    np.testing.assert_array_equal(out, x[2, 10:110, :] * 2)
    text = nisa.nki.to_nasm(views.batch_rows, x, 2, 10, 100)
    assert ".hbm rows f32 [100, 64] output" in text
    assert "src=x.ap(pattern=[[64, 100], [1, 64]], offset=17024)" in text  # 2*128*64 + 10*64


def test_ap_without_offset_inherits_the_view_offset():
    x = np.arange(128 * 64, dtype=np.float32).reshape(128, 64)
    whole, part = views.ap_on_a_view(x)
    np.testing.assert_array_equal(whole, x[:, 16:48])
    np.testing.assert_array_equal(part, x[:, 24:40])
    text = nisa.nki.to_nasm(views.ap_on_a_view, x)
    assert "data=t[0:128, 16:48]" in text and "data=t[0:128, 24:40]" in text


def test_old_return_value_style_writes_in_place():
    x = np.linspace(-2, 2, 128 * 32, dtype=np.float32).reshape(128, 32)
    out = views.old_return_style(x)
    np.testing.assert_allclose(out, (np.exp(x) + 1) * 3, rtol=1e-5)
    text = nisa.nki.to_nasm(views.old_return_style, x)
    assert "activation dst=t, op=exp, data=t" in text


def test_tiles_whose_life_is_over_give_their_space():
    x = np.random.default_rng(3).random((128, 2048)).astype(np.float32)
    out = views.many_tiles(x, 64)  # 65 tiles of 8 KiB a partition; SBUF has 224 KiB
    expected = np.zeros_like(x)
    for _ in range(64):
        expected += x
    np.testing.assert_array_equal(out, expected)


def test_kernel_writes_its_parameter():
    x = np.ones((128, 8), np.float32)
    y = np.full((128, 8), 2, np.float32)
    out = views.inout(x, y)
    np.testing.assert_array_equal(out, np.full((128, 8), 3, np.float32))
    np.testing.assert_array_equal(y, np.full((128, 8), 3, np.float32))  # the kernel's write reaches the caller
    assert ".hbm y f32 [128, 8] inout" in nisa.nki.to_nasm(views.inout, x, y)


def test_psum_values_are_copied_out_before_a_store():
    x = np.arange(128 * 16, dtype=np.float32).reshape(128, 16)
    np.testing.assert_array_equal(views.psum_round_trip(x), x)


def test_platform_target_from_the_environment(monkeypatch):
    x = np.zeros((4, 64), np.float32)
    monkeypatch.setenv("NEURON_PLATFORM_TARGET_OVERRIDE", "gen4")
    assert ".arch trn3" in nisa.nki.to_nasm(views.psum_round_trip, x)


def test_nki_isa_has_every_instruction_of_the_spec_with_its_keys():
    with open(os.path.join(SOURCE, "isa-spec", "isa.json")) as f:
        spec = json.load(f)
    import inspect
    for instruction in spec["instructions"]:
        if instruction["name"] in nisa.nki.isa.ABSENT:  # device_print: nki.language's (test_device_print.py)
            continue
        fn = getattr(nisa.nki.isa, instruction["name"])
        params = set(inspect.signature(fn).parameters)
        keys = {o["name"] for o in instruction["operands"]}
        # iota's older base/partition_step/free_step form is .nasm only; NKI 0.6 has pattern/offset/channel_multiplier
        keys -= {"base", "partition_step", "free_step"}
        assert keys <= params, (instruction["name"], keys - params)
    for name in spec["nki_instructions_not_modeled"]:
        assert callable(getattr(nisa.nki.isa, name))
    # the register calls are nisa.nki's own (issue 29), not instructions of the spec
    assert sorted(nisa.nki.isa.NOT_MODELED) == sorted(set(spec["nki_instructions_not_modeled"]) -
                                                     set(nisa.nki.isa.REGISTER_CALLS))


def test_profile_report():
    x = np.zeros((128, 64), np.float32)
    out, report = nisa.nki.run(views.psum_round_trip, x, profile=True)
    assert report["engines"]["dma"]["instructions"] == 2


def test_tensor_names_avoid_every_enumeration_value():
    with open(os.path.join(SOURCE, "isa-spec", "isa.json")) as f:
        spec = json.load(f)
    from nisa.nki import _record
    for values in spec["enums"].values():
        for value in values:
            for name in [value["name"]] + value.get("aliases", []):
                assert name in _record._RESERVED, name


def test_number_first_operators_and_tile_divisors():
    x = np.random.default_rng(4).uniform(0.5, 4.0, (128, 32)).astype(np.float32)
    one_minus, two_over, share = views.scalar_first(x)
    np.testing.assert_array_equal(one_minus, 1.0 - x)
    np.testing.assert_allclose(two_over, 2.0 / x, rtol=1e-6)
    np.testing.assert_allclose(share, x / x.sum(axis=1, keepdims=True), rtol=1e-5)
