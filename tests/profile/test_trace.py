#!/usr/bin/python3
"""`nisa run --profile` and `--trace FILE.json` (LANGUAGE.md section 1,
SEMANTICS S6) on real workloads and small hand-checked programs.

The trace must be Chrome trace event JSON that Perfetto opens: metadata naming
the process and one thread per engine, and one complete event (ph "X") per
instruction. Checked here, independently of nisa's own code:
- every instruction appears exactly once, with the mnemonic `nisa dis` prints
  at that position and a source line that holds that mnemonic;
- per engine, slices are in program order and do not overlap (S6: each
  engine runs its own instructions in order);
- a slice starts no earlier than the end of each dependency it lists, and a
  dependency is always an earlier instruction;
- dur = cycles / the engine's clock (the thread name states it);
- the --profile table agrees with the trace (counts, busy cycles, span).
A program for several cores (SEMANTICS S16.4): one process per core (pid
core + 1, named "core K") with its five engines as threads (tid 5 * core +
engine); each slice on its core's process; the sides of a meeting start and
end together; the table's rows per core agree with the trace.
Also: exit statuses and no trace file when the run fails.

usage: test_trace.py NISA SOURCE_DIR
"""
import json
import os
import re
import subprocess
import sys
import tempfile

NISA, ROOT = sys.argv[1], sys.argv[2]
sys.path.insert(0, os.path.join(ROOT, "tests", "programs"))
from run_programs import program_inputs  # noqa: E402  (the workloads' --input convention)

WORKLOADS = ["flash_attention_block", "causal_row_max", "masked_softmax", "moe_routing", "kv_cache_update"]
EPS = 2e-6  # µs: ts and dur are printed to the picosecond
failures = []
work = tempfile.mkdtemp(prefix="nisa_trace_")


def expect(name, condition, detail=""):
    if not condition:
        failures.append(f"{name}: {detail}")
    return condition


def run(*args):
    p = subprocess.run([NISA, *args], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def mnemonics(nasm):
    """(mnemonic, core) of each instruction in program order, from `nisa dis` of the assembled program."""
    nbin = os.path.join(work, os.path.basename(os.path.dirname(nasm)) + ".nbin")
    rc, _, err = run("asm", nasm, "-o", nbin)
    assert rc == 0, err
    rc, text, err = run("dis", nbin)
    assert rc == 0, err
    out = []
    core = 0
    for line in text.splitlines():
        line = line.split(";")[0].strip()
        if line.startswith(".core "):
            core = int(line.split()[1])
        elif line and not line.startswith("."):
            out.append((line.split()[0], core))
    return out


def check_trace(name, trace, expected, source_lines):
    """`expected`: (mnemonic, core) per instruction, as mnemonics() gives them."""
    cores = 1 + max((core for _, core in expected), default=0)
    events = trace["traceEvents"]
    meta = [e for e in events if e["ph"] == "M"]
    processes = {e["pid"]: e["args"]["name"] for e in meta if e["name"] == "process_name"}
    if cores == 1:
        expect(name, list(processes) == [1], f"processes {processes}")
    else:
        expect(name, processes == {c + 1: f"core {c}" for c in range(cores)}, f"processes {processes}")
    clocks = {}
    for e in meta:
        if e["name"] == "thread_name":
            m = re.search(r"\(([0-9.]+) GHz\)", e["args"]["name"])
            if expect(name, m, f"thread name without a clock: {e}"):
                clocks[e["pid"], e["tid"]] = float(m.group(1))
    tracks = sorted((c + 1, 5 * c + engine) for c in range(cores) for engine in range(5))
    expect(name, sorted(clocks) == tracks, f"threads {sorted(clocks)}")
    slices = [e for e in events if e["ph"] == "X"]
    by_index = {}
    for e in slices:
        i = e["args"]["index"]
        expect(name, i not in by_index, f"instruction {i} twice")
        by_index[i] = e
    expect(name, sorted(by_index) == list(range(len(expected))),
           f"{len(by_index)} slices for {len(expected)} instructions")
    for i, e in by_index.items():
        if i >= len(expected):
            continue
        mnemonic, core = expected[i]
        expect(name, e["name"] == mnemonic, f"#{i} is {e['name']}, dis says {mnemonic}")
        expect(name, e["pid"] == core + 1 and e["tid"] // 5 == core, f"#{i} of core {core} on {e['pid']}/{e['tid']}")
        file, line = e["args"]["source"].rsplit(":", 1)
        text = source_lines[int(line) - 1].strip() if 0 < int(line) <= len(source_lines) else ""
        expect(name, text.startswith(e["name"] + " "), f"#{i} {e['args']['source']} is {text!r}")
        e["clock"] = clocks.get((e["pid"], e["tid"]), 1)  # for check_profile
        dur = e["args"]["cycles"] / e["clock"] / 1000
        if "meets" in e["args"]:  # S16.4: the sides start together and end together, after the longest cost
            for j in e["args"]["meets"]:
                other = by_index.get(j, e)
                expect(name, expected[j][1] != core and abs(other["ts"] - e["ts"]) < EPS and abs(other["dur"] - e["dur"]) < EPS,
                       f"#{i} meets #{j}: {e['ts']}+{e['dur']} vs {other['ts']}+{other['dur']}")
            expect(name, e["args"]["waited_us"] >= 0 and e["dur"] >= dur - EPS, f"#{i} {e['args']}")
        else:
            expect(name, e["dur"] > 0 and abs(e["dur"] - dur) < EPS, f"#{i} dur {e['dur']} for {e['args']['cycles']} cycles")
        for d in e["args"]["deps"]:
            j = d["index"]
            expect(name, j < i, f"#{i} depends on later #{j}")
            expect(name, j >= len(expected) or expected[j][1] == core, f"#{i} of core {core} depends on #{j} of another core")
            if j in by_index:
                end = by_index[j]["ts"] + by_index[j]["dur"]
                expect(name, e["ts"] >= end - EPS, f"#{i} starts at {e['ts']} before #{j} ends at {end}")
            expect(name, d["kind"] and set(d["kind"].split("+")) <= {"RAW", "WAR", "WAW", "accumulator"}, str(d))
    for track in tracks:
        mine = sorted((e for e in slices if (e["pid"], e["tid"]) == track), key=lambda e: e["args"]["index"])
        for a, b in zip(mine, mine[1:]):
            expect(name, b["ts"] >= a["ts"] + a["dur"] - EPS,
                   f"engine {track}: #{b['args']['index']} at {b['ts']} overlaps #{a['args']['index']} ending {a['ts'] + a['dur']}")
    return slices


def check_profile(name, out, slices):
    """The --profile table against the trace: counts and busy cycles per engine (per core), and the span."""
    engines = ["tensor", "vector", "scalar", "gpsimd", "dma"]
    cores = max((e["pid"] for e in slices), default=1)
    span = max((e["ts"] + e["dur"] for e in slices), default=0)
    m = re.search(r"estimated ([0-9.]+) us", out)
    expect(name, m and abs(float(m.group(1)) - span) < 1e-3, f"span {m and m.group(1)} vs trace {span}")
    for core in range(cores):
        prefix = rf"{core}\s+" if cores > 1 else ""
        for engine_index, engine in enumerate(engines):
            mine = [e for e in slices if (e["pid"], e["tid"]) == (core + 1, 5 * core + engine_index)]
            row = re.search(rf"^{prefix}{engine}\s+(\d+)\s+(\d+)\s+[0-9.]+\s+([0-9.]+)\s+([0-9.]+)%$", out, re.M)
            if not expect(name, row, f"no {engine} row of core {core} in:\n{out}"):
                continue
            expect(name, int(row.group(1)) == len(mine), f"{engine} count {row.group(1)} vs {len(mine)}")
            expect(name, int(row.group(2)) == sum(e["args"]["cycles"] for e in mine), f"{engine} cycles")
            busy = sum(e["dur"] for e in mine)
            expect(name, abs(float(row.group(3)) - busy) < 2e-3, f"{engine} busy {row.group(3)} vs {busy}")
            if span > 0:
                expect(name, abs(float(row.group(4)) - 100 * busy / span) < 0.1, f"{engine} utilisation {row.group(4)}")
        if cores > 1:  # core, instructions, end, time waiting at meetings
            mine = [e for e in slices if e["pid"] == core + 1]
            row = re.search(rf"^{core}\s+(\d+)\s+([0-9.]+)\s+([0-9.]+)$", out, re.M)
            waited = sum(e["args"].get("waited_us", 0) for e in mine)
            end = max((e["ts"] + e["dur"] for e in mine), default=0)
            expect(name, row and int(row.group(1)) == len(mine) and abs(float(row.group(2)) - end) < 2e-3
                   and abs(float(row.group(3)) - waited) < 2e-3, f"core {core} row {row and row.group(0)}: {len(mine)}, {end}, {waited}")
    core_column = r"\d+\s+" if cores > 1 else ""
    top = re.findall(rf"^\s*(\d+)\s+{core_column}(\S+:\d+)\s+(\w+)\s+(\w+)\s+(\d+)\s", out.split("top ", 1)[-1], re.M)
    expect(name, len(top) == min(10, len(slices)), f"top rows: {len(top)}")
    def cost(e):  # what the top list ranks by: cycles at the engine's clock (a meeting's slice may be longer)
        return e["args"]["cycles"] / e["clock"] / 1000

    durations = sorted(map(cost, slices), reverse=True)
    for rank, (_, src, engine, mnemonic, cycles) in enumerate(top):
        match = [e for e in slices if e["args"]["source"] == src and e["name"] == mnemonic and e["args"]["cycles"] == int(cycles)]
        expect(name, match and abs(cost(match[0]) - durations[rank]) < EPS,
               f"top row {rank + 1}: {src} {mnemonic}")


def workload(folder):
    prog = os.path.join(ROOT, "programs", folder, "prog.nasm")
    with open(prog) as f:
        text = f.read()
    args = []
    for tensor in program_inputs(text):
        npy = os.path.join(ROOT, "programs", folder, tensor + ".npy")
        if os.path.exists(npy):
            args += ["--input", f"{tensor}={npy}"]
    trace_file = os.path.join(work, folder + ".json")
    rc, out, err = run("run", prog, *args, "--profile", "--trace", trace_file)
    if not expect(folder, rc == 0, f"exit {rc}: {err}"):
        return
    with open(trace_file) as f:
        trace = json.load(f)
    slices = check_trace(folder, trace, mnemonics(prog), text.splitlines())
    check_profile(folder, out, slices)
    print(f"{folder}: {len(slices)} instructions, {trace['otherData']['estimated_us']} us estimated")


for folder in WORKLOADS:
    workload(folder)


def write(name, text):
    p = os.path.join(work, name)
    with open(p, "w") as f:
        f.write(text)
    return p


# Hand-derived (S6, trn2: Vector 0.96 GHz, Scalar 1.2 GHz, FIXED 100): memset of
# 960 elements per partition takes 960 Vector cycles = 1 µs; the activation that
# reads it waits 100 Scalar cycles, then takes 960 Scalar cycles = 0.8 µs.
small = write("small.nasm", """.arch trn2
.sbuf a f32 [128, 960]
.sbuf b f32 [128, 960]
memset dst=a, value=1
activation dst=b, op=exp, data=a
""")
rc, out, err = run("run", small, "--profile", "--trace", os.path.join(work, "small.json"))
expect("small", rc == 0, err)
if rc == 0:
    with open(os.path.join(work, "small.json")) as f:
        ev = {e["args"]["index"]: e for e in json.load(f)["traceEvents"] if e["ph"] == "X"}
    expect("small memset", abs(ev[0]["ts"]) < EPS and abs(ev[0]["dur"] - 1.0) < EPS, str(ev[0]))
    expect("small activation", abs(ev[1]["ts"] - (1.0 + 100 / 1.2 / 1000)) < EPS and abs(ev[1]["dur"] - 0.8) < EPS, str(ev[1]))
    expect("small deps", ev[1]["args"]["deps"] == [{"index": 0, "kind": "RAW"}], str(ev[1]["args"]))
    expect("small span", "estimated 1.883 us" in out, out)
    expect("small utilisation", re.search(r"^vector\s+1\s+960\s+0\.96\s+1\.000\s+53\.1%$", out, re.M), out)
    expect("small utilisation", re.search(r"^scalar\s+1\s+960\s+1\.20\s+0\.800\s+42\.5%$", out, re.M), out)

# Two cores (S16.4), hand-derived (trn2: Vector 0.96 GHz, the others 1.2 GHz;
# sendrecv CROSS_CORE_SYNC + FIXED + BYTES / 64 = 1560 + 100 + 7680 cycles,
# core_barrier 1560 cycles of its engine). Core 1 reaches the exchange last,
# after two activations (1.6 us) and the DMA queue's wait (100 cycles): both
# sides run 1.683..9.467 us. Each core then DMAs half of y (3940 cycles, to
# 12.75 us) and meets at the barrier: core 0 waits on Vector (ready 100 / 0.96
# ns later), core 1 on GpSimd (100 / 1.2 ns); both end 1560 / 0.96 ns after
# the later one.
cores = write("cores.nasm", """.arch trn2
.cores 2
.hbm  y f32 [128, 960] output
.core 0
.sbuf a f32 [128, 960]
.sbuf r f32 [128, 960]
memset dst=a, value=1
sendrecv src=a, dst=r, send_to_rank=1, recv_from_rank=1, pipe_id=0
dma_copy dst=y[0:64], src=r[0:64]
core_barrier data=y, cores=[0, 1], engine=vector
.core 1
.sbuf a f32 [128, 960]
.sbuf r f32 [128, 960]
activation dst=a, op=exp, data=a
activation dst=a, op=exp, data=a
sendrecv src=a, dst=r, send_to_rank=0, recv_from_rank=0, pipe_id=0
dma_copy dst=y[64:128], src=r[64:128]
core_barrier data=y, cores=[0, 1]
""")
rc, out, err = run("run", cores, "--profile", "--trace", os.path.join(work, "cores.json"))
if expect("cores", rc == 0, err):
    with open(os.path.join(work, "cores.json")) as f:
        trace = json.load(f)
    with open(cores) as f:
        slices = check_trace("cores", trace, mnemonics(cores), f.read().splitlines())
    check_profile("cores", out, slices)
    ev = {e["args"]["index"]: e for e in slices}
    exchange = 1.6 + 0.1 / 1.2
    barrier = exchange + 9340 / 1200 + 3940 / 1200 + 0.1 / 0.96
    for i in (1, 6):
        expect("cores sendrecv", abs(ev[i]["ts"] - exchange) < EPS and abs(ev[i]["dur"] - 9340 / 1200) < EPS, str(ev[i]))
    for i in (3, 8):
        expect("cores barrier", abs(ev[i]["ts"] - barrier) < EPS and abs(ev[i]["dur"] - 1.56 / 0.96) < EPS, str(ev[i]))
    expect("cores waited", abs(ev[1]["args"].get("waited_us", -1) - 0.6) < EPS and ev[6]["args"].get("waited_us") == 0, str(ev[1]))
    expect("cores span", f"estimated {barrier + 1.56 / 0.96:.3f} us" in out and "2 cores" in out, out)
    expect("cores waiting", re.search(r"^0\s+4\s+14\.479\s+0\.600$", out, re.M), out)
    expect("cores waiting", re.search(r"^1\s+5\s+14\.479\s+0\.021$", out, re.M), out)
    print(f"cores: {len(slices)} instructions, {trace['otherData']['estimated_us']} us estimated")

# A failed run writes no trace and prints no profile.
fault = write("fault.nasm", """.arch trn2
.hbm  y f32 [128, 16] output
.sbuf a f32 [128, 16]
.sbuf b f32 [128, 16]
memset dst=a[0:64], value=1
tensor_scalar dst=b, data=a, op0=add, operand0=1.0
dma_copy dst=y, src=b
""")
for name, args, status in [("runtime fault", [fault, "--strict"], 3),
                           ("bad input", [os.path.join(ROOT, "programs", "causal_row_max", "prog.nasm")], 2)]:
    trace_file = os.path.join(work, name.replace(" ", "_") + ".json")
    rc, out, err = run("run", *args, "--profile", "--trace", trace_file)
    expect(name, rc == status, f"exit {rc}, expected {status}: {err}")
    expect(name, not os.path.exists(trace_file), "trace written by a failed run")
    expect(name, "profile:" not in out, out)
    expect(name, [f for f in os.listdir(work) if f.startswith(name.replace(" ", "_"))] == [], "temporary left behind")

# An unwritable trace path: exit 2, one line naming the file.
rc, out, err = run("run", small, "--trace", os.path.join(work, "no_such_dir", "t.json"))
expect("unwritable", rc == 2 and "no_such_dir/t.json: error: cannot write" in err and err.count("\n") == 1, f"{rc} {err!r}")
rc, out, err = run("run", small, "--trace")
expect("--trace without a file", rc == 2, f"{rc} {err!r}")

for f in failures:
    print("FAIL", f)
print(f"{len(failures)} failure(s); files in {work}")
sys.exit(1 if failures else 0)
