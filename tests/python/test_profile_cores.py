"""nisa.run(profile=True, trace=PATH) of a program for two cores (LANGUAGE.md 4,
SEMANTICS S16.4): the report's rows per core and the trace's process per core
come from the same timeline as `nisa run --profile --trace`.

Expected times are hand-derived (trn2: Vector 0.96 GHz, DMA 1.2 GHz; a
dependent instruction waits 100 cycles of its engine; sendrecv costs
CROSS_CORE_SYNC + FIXED + BYTES / 64 = 1560 + 100 + 7680 cycles, dma_copy
FIXED + BYTES / 64). Core 0 is ready to exchange after one memset (1 us), core
1 after three (3 us); both sides start 100 DMA cycles after core 1's last
memset and end together; each core then copies half of what it received.
"""
import json

import numpy as np
import pytest

import nisa

TWO_CORES = """\
.arch trn2
.cores 2
.hbm y f32 [128, 960] output
.core 0
.sbuf a f32 [128, 960]
.sbuf r f32 [128, 960]
memset dst=a, value=1
sendrecv src=a, dst=r, send_to_rank=1, recv_from_rank=1, pipe_id=0
dma_copy dst=y[0:64], src=r[0:64]
.core 1
.sbuf a f32 [128, 960]
.sbuf r f32 [128, 960]
memset dst=a, value=2
memset dst=a, value=2
memset dst=a, value=2
sendrecv src=a, dst=r, send_to_rank=0, recv_from_rank=0, pipe_id=0
dma_copy dst=y[64:128], src=r[64:128]
"""

EXCHANGE_START = 3 + 100 / 1200  # us
END = EXCHANGE_START + 9340 / 1200 + 3940 / 1200  # the exchange, then 64 rows of DMA


def approx(value, tolerance=1e-9):
    return pytest.approx(value, abs=tolerance)


def test_profile_report_per_core(tmp_path):
    out, report = nisa.run(TWO_CORES, profile=True, trace=tmp_path / "t.json")
    expected = np.concatenate([np.full((64, 960), 2, np.float32), np.full((64, 960), 1, np.float32)])
    np.testing.assert_array_equal(out["y"], expected)  # each core's half holds what the other sent
    assert report["span_us"] == approx(END)
    core0, core1 = report["cores"]
    assert core0["instructions"] == 3 and core1["instructions"] == 5
    assert core0["end_us"] == approx(END) and core1["end_us"] == approx(END)
    assert core0["waiting_us"] == approx(2.0)  # ready at 1 us + the DMA wait, core 1 at 3 us + it
    assert core1["waiting_us"] == 0
    assert core1["engines"]["vector"]["instructions"] == 3
    assert core1["engines"]["vector"]["busy_us"] == approx(3.0)
    assert core1["engines"]["vector"]["utilisation"] == approx(3.0 / END)
    # The engines summed over both cores; utilisation of the two cores' Vector Engines together.
    assert report["engines"]["vector"]["instructions"] == 4
    assert report["engines"]["vector"]["busy_cycles"] == 4 * 960
    assert report["engines"]["vector"]["utilisation"] == approx(4.0 / (2 * END))
    assert report["engines"]["dma"]["instructions"] == 4
    assert "2 cores" in report["table"] and "waits at meetings us" in report["table"]

    trace = json.loads((tmp_path / "t.json").read_text())
    names = {e["pid"]: e["args"]["name"] for e in trace["traceEvents"] if e["name"] == "process_name"}
    assert names == {1: "core 0", 2: "core 1"}
    slices = {e["args"]["index"]: e for e in trace["traceEvents"] if e["ph"] == "X"}
    assert [slices[i]["pid"] for i in range(8)] == [1, 1, 1, 2, 2, 2, 2, 2]
    in_trace = approx(EXCHANGE_START, 1e-6)  # the trace gives microseconds to the picosecond
    assert slices[1]["ts"] == in_trace and slices[6]["ts"] == in_trace
    assert slices[1]["args"]["meets"] == [6] and slices[6]["args"]["meets"] == [1]


def test_one_core_report_has_one_core():
    _, report = nisa.run(".arch trn2\n.sbuf a f32 [128, 960]\nmemset dst=a, value=1\n", profile=True)
    assert len(report["cores"]) == 1
    assert report["cores"][0]["engines"] == report["engines"]
    assert report["cores"][0]["waiting_us"] == 0
    assert report["span_us"] == approx(1.0)  # 960 Vector cycles at 0.96 GHz
