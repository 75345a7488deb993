"""Recording stays linear in program size (issue 25): the tensor-name counter,
per-code-object and per-file caches of the kernel's location, declarations
reused by tiles that take an earlier tile's place, .loc only where needed.
Checked by counting work (deterministic), plus one generous ratio of times."""
import gc
import os
import random
import sys
import time

import numpy as np
import pytest

import nisa
import nisa.nki
from nisa.nki import _record

nisa.nki.install()
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "kernels"))

import softmax  # noqa: E402
import tensor_add  # noqa: E402


def naive_names(wanted_names):
    """The naming rule as first written: NAME, else the first free NAME_1, NAME_2, ..."""
    taken, out = set(), []
    for wanted in wanted_names:
        base = _record._identifier(wanted)
        name, n = base, 1
        while name in taken or name in _record._RESERVED:
            name = f"{base}_{n}"
            n += 1
        taken.add(name)
        out.append(name)
    return out


def test_names_counter_gives_each_base_its_next_free_number():
    names = _record._Names()
    assert [names.claim("a_tile") for _ in range(3)] == ["a_tile", "a_tile_1", "a_tile_2"]
    assert names.claim("b") == "b"
    assert names.claim("a-tile") == "a_tile_3"  # made an identifier first


def test_names_skip_user_names_that_look_generated():
    names = _record._Names()
    assert names.claim("a_tile_1") == "a_tile_1"  # a user's own name, taken first
    assert names.claim("a_tile_3") == "a_tile_3"
    assert [names.claim("a_tile") for _ in range(4)] == ["a_tile", "a_tile_2", "a_tile_4", "a_tile_5"]
    assert names.claim("a_tile_2") == "a_tile_2_1"  # a user name already generated


def test_names_never_take_a_reserved_word():
    names = _record._Names()
    for word in ("exp", "add", "nan", "true", "fp32", "vector"):
        assert word in _record._RESERVED
        assert names.claim(word) == word + "_1"
    names.claim("exp_2")
    assert names.claim("exp") == "exp_3"
    assert names.claim("1x") == "t1x" and names.claim("") == "t"


def test_names_are_those_of_the_naive_rule_and_deterministic():
    rng = random.Random(25)
    pool = ["a", "a_1", "a_2", "a_1_1", "exp", "exp_1", "t", "x y", "1a", "b_tile", "b_tile_10", "add_3"]
    wanted = [rng.choice(pool) for _ in range(3000)]
    names = _record._Names()
    got = [names.claim(w) for w in wanted]
    assert got == naive_names(wanted)
    assert len(set(got)) == len(got) and not set(got) & _record._RESERVED
    again = _record._Names()
    assert [again.claim(w) for w in wanted] == got


class CountingSet(set):
    def __init__(self, *args):
        super().__init__(*args)
        self.lookups = 0

    def __contains__(self, item):
        self.lookups += 1
        return super().__contains__(item)


def test_naming_many_tiles_after_one_variable_tries_each_name_once(monkeypatch):
    reserved = CountingSet(_record._RESERVED)
    monkeypatch.setattr(_record, "_RESERVED", reserved)
    names = _record._Names()
    for _ in range(5000):
        names.claim("a_tile")
    assert reserved.lookups <= 5000  # the quadratic search made 5000 * 5001 / 2


def softmax_input(instructions):
    return np.broadcast_to(np.zeros(1, np.float32), (128 * (instructions // 8), 128))  # 8 instructions per tile


def test_kernel_positions_and_paths_are_looked_up_once_per_code_object(monkeypatch):
    positions, abspath = [], []
    real_positions, real_abspath = _record._positions, os.path.abspath
    monkeypatch.setattr(_record, "_positions", lambda code: positions.append(code) or real_positions(code))
    monkeypatch.setattr(os.path, "abspath", lambda p: abspath.append(p) or real_abspath(p))
    recorded = nisa.nki._record_call(softmax.nki_softmax_kernel, (softmax_input(4000),), {})
    assert len(recorded.recording.instructions) == 4000
    assert len(positions) == len(set(positions)) <= 5  # the kernel's code object (and a helper's), once each
    assert len(abspath) <= 20  # files, not calls


def test_loop_tiles_reuse_declarations_so_large_kernels_assemble():
    a = softmax_input(16000)  # 2000 tiles of 128 rows: 14,000 tiles recorded
    recorded = nisa.nki._record_call(softmax.nki_softmax_kernel, (a,), {})
    declarations = [line for line in recorded.text.splitlines() if line.startswith((".sbuf", ".psum"))]
    assert len(declarations) < 1024
    names = [line.split()[1] for line in declarations]
    assert len(set(names)) == len(names)
    program = nisa.assemble(recorded.text)
    assert len(program) == 16000


def test_reused_declarations_give_the_same_results():
    x = np.random.default_rng(25).standard_normal((128 * 300, 128)).astype(np.float32)  # SBUF fills after ~100 tiles
    text = nisa.nki.to_nasm(softmax.nki_softmax_kernel, x)
    assert 7 * 100 < text.count("\n.sbuf ") < 7 * 300  # 7 tiles per 128 rows: declared again ...
    assert text.count("dst=a_tile,") > 100  # ... by later rows
    out = softmax.nki_softmax_kernel(x)
    e = np.exp(x - x.max(axis=1, keepdims=True))
    np.testing.assert_allclose(out, e / e.sum(axis=1, keepdims=True), rtol=1e-5, atol=1e-7)
    strict = nisa.nki.run(softmax.nki_softmax_kernel, x, strict=True)
    np.testing.assert_array_equal(strict, out)


def lines_of_instructions(text):
    """The source line the assembler gives each instruction: .loc N, then N+1, ..."""
    lines, following = [], None
    for line in text.splitlines():
        if not line or line.startswith(";"):
            continue
        if line.startswith(".loc "):
            following = int(line.split()[1])
        elif not line.startswith("."):
            lines.append(following)
            following += 1
    return lines


def test_loc_only_where_the_line_is_not_the_implied_one():
    a = np.zeros((128 * 4, 512 * 2), np.float16)
    recorded = nisa.nki._record_call(tensor_add.nki_tensor_add, (a, a), {})
    text = recorded.text
    instructions = recorded.recording.instructions
    assert lines_of_instructions(text) == [i.location.line for i in instructions]
    assert 0 < text.count("\n.loc ") < len(instructions)
    program = nisa.assemble(text)
    assert len(program) == len(instructions)  # .loc lines are not instructions
    assert lines_of_instructions(program.disassemble()) == [i.location.line for i in instructions]


def record_seconds(instructions):
    a = softmax_input(instructions)
    gc.collect()  # an earlier test's garbage is not this recording's time
    start = time.process_time()
    nisa.nki._record_call(softmax.nki_softmax_kernel, (a,), {})
    return time.process_time() - start


def test_recording_time_grows_linearly():
    small = min(record_seconds(2000) for _ in range(3))
    large = min(record_seconds(20000) for _ in range(2))
    # Linear: 10-15x (the collector's first pass over the recording's objects,
    # once it is back on, adds a third). The quadratic recording of issue 25
    # took 44x here; CPU times, so a busy machine matters less.
    assert large < 25 * small + 0.3, (small, large)


def profile_recording(kernel, args):
    """(Python calls per recorded instruction, deepest nesting of nki-call entries)."""
    entries = (_record._CALL_CODE, _record._ENTRY_CODE)  # checked() wrappers, nki.isa instructions
    calls, depth, deepest = 0, 0, 0

    def profile(frame, event, arg):
        nonlocal calls, depth, deepest
        if event == "call":
            calls += 1
            if any(frame.f_code is code for code in entries):
                depth += 1
                deepest = max(deepest, depth)
        elif event == "return" and any(frame.f_code is code for code in entries):
            depth -= 1

    sys.setprofile(profile)
    try:
        recorded = nisa.nki._record_call(kernel, args, {})
    finally:
        sys.setprofile(None)
    return calls / len(recorded.recording.instructions), deepest


def test_recording_work_per_instruction_is_bounded():
    """Deterministic: each nki call passes through one error-checking entry
    (nisa.nki's own code calls the unwrapped functions), and an instruction
    costs a bounded number of Python calls (issue 25: 72-75 before, 22-26
    after; 40 leaves room, an O(n) walk per instruction does not fit)."""
    a = np.broadcast_to(np.zeros(1, np.float16), (128 * 10, 512 * 25))
    for kernel, args in ((softmax.nki_softmax_kernel, (softmax_input(2000),)), (tensor_add.nki_tensor_add, (a, a))):
        per_instruction, deepest = profile_recording(kernel, args)
        assert deepest == 1, kernel
        assert per_instruction < 40, (kernel, per_instruction)
