"""@nki.jit kernels called at once on several threads: each call records and
runs its own program (the recorder is per thread, LANGUAGE.md 4); a kernel
calling another kernel on its own thread is still refused."""
import os
import threading

import numpy as np
import pytest

import nisa
import nisa.nki

nisa.nki.install()
import nki  # noqa: E402
import nki.language as nl  # noqa: E402
from marked_lines import assert_located  # noqa: E402

THIS_FILE = os.path.abspath(__file__)
THREADS, CALLS = 8, 10


@nki.jit
def scale_add(x, y, factor):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    a = nl.load(x)
    b = nl.load(y)
    nl.store(out, value=nl.add(nl.multiply(a, factor), b))
    return out


def operands(thread, call):
    """Different shapes, values and factor per call, so that two recordings
    mixed up would give a wrong shape or value. Eighths of small integers:
    every product and sum is exact in float32."""
    rng = np.random.default_rng(thread * 100 + call)
    shape = (128, 4 + thread)
    x = rng.integers(-64, 64, size=shape).astype(np.float32) / 8
    y = rng.integers(-64, 64, size=shape).astype(np.float32) / 8
    return x, y, float(call + 1)


def test_concurrent_calls_each_record_and_run_exactly():
    start = threading.Barrier(THREADS)
    failures, results = [], {}

    def worker(thread):
        try:
            start.wait(timeout=5)
            for call in range(CALLS):
                x, y, factor = operands(thread, call)
                results[thread, call] = (scale_add(x, y, factor), x * np.float32(factor) + y)
        except Exception as e:  # reported below, with the thread that failed
            failures.append((thread, repr(e)))

    threads = [threading.Thread(target=worker, args=(t,)) for t in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=8)
    assert not any(t.is_alive() for t in threads), "a kernel call hung"
    assert failures == []
    assert len(results) == THREADS * CALLS
    for (thread, call), (got, expected) in results.items():
        assert got.dtype == np.float32 and got.shape == expected.shape, (thread, call)
        np.testing.assert_array_equal(got, expected, err_msg=f"thread {thread}, call {call}")


@nki.jit
def inner(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    nl.store(out, value=nl.load(x))
    return out


@nki.jit
def outer(x):
    return inner(x)


def test_a_kernel_calling_another_kernel_is_refused():
    x = np.ones((128, 4), np.float32)
    with pytest.raises(nisa.Error, match="a kernel cannot call another @nki.jit kernel"):
        outer(x)
    np.testing.assert_array_equal(inner(x), x)  # this thread's recorder was released


class KernelOwnError(Exception):
    pass


@nki.jit
def raises_its_own(x):
    nl.load(x)
    raise KernelOwnError("the kernel's own complaint")


def test_a_kernel_s_own_exception_propagates_unchanged():
    x = np.ones((128, 4), np.float32)
    with pytest.raises(KernelOwnError, match="the kernel's own complaint") as info:
        raises_its_own(x)
    assert not isinstance(info.value, nisa.Error)
    np.testing.assert_array_equal(inner(x), x)


def test_a_recording_on_one_thread_is_not_seen_from_another():
    seen = []

    @nki.jit
    def asks_another_thread(x):
        def outside():
            try:
                nl.ndarray((128, 4), dtype=nl.float32)
            except nisa.Error as e:
                seen.append(e.message)
        t = threading.Thread(target=outside)
        t.start()
        t.join(timeout=5)
        out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
        nl.store(out, value=nl.load(x))
        return out

    x = np.ones((128, 4), np.float32)
    np.testing.assert_array_equal(asks_another_thread(x), x)
    assert len(seen) == 1 and "inside a function decorated with @nki.jit" in seen[0]


leaked = []


@nki.jit
def leaks_a_tile(x):
    t = nl.load(x)
    leaked.append(t)
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    nl.store(out, value=t)
    return out


@nki.jit
def uses_a_leaked_tile(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    nl.store(out, value=leaked[0])  # LINE uses_a_leaked_tile
    return out


def test_a_tile_of_another_call_is_refused_at_its_line():
    x = np.ones((128, 4), np.float32)
    leaks_a_tile(x)
    with pytest.raises(nisa.Error, match="belongs to another kernel call") as info:
        uses_a_leaked_tile(x)
    assert_located(info.value, THIS_FILE, "uses_a_leaked_tile")

