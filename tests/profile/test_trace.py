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
    """Instruction mnemonics in program order, from `nisa dis` of the assembled program."""
    nbin = os.path.join(work, os.path.basename(os.path.dirname(nasm)) + ".nbin")
    rc, _, err = run("asm", nasm, "-o", nbin)
    assert rc == 0, err
    rc, text, err = run("dis", nbin)
    assert rc == 0, err
    out = []
    for line in text.splitlines():
        line = line.split(";")[0].strip()
        if line and not line.startswith("."):
            out.append(line.split()[0])
    return out


def check_trace(name, trace, expected_mnemonics, source_lines):
    events = trace["traceEvents"]
    meta = [e for e in events if e["ph"] == "M"]
    expect(name, any(e["name"] == "process_name" for e in meta), "no process_name")
    clocks = {}
    for e in meta:
        if e["name"] == "thread_name":
            m = re.search(r"\(([0-9.]+) GHz\)", e["args"]["name"])
            if expect(name, m, f"thread name without a clock: {e}"):
                clocks[e["tid"]] = float(m.group(1))
    expect(name, sorted(clocks) == [0, 1, 2, 3, 4], f"threads {sorted(clocks)}")
    slices = [e for e in events if e["ph"] == "X"]
    by_index = {}
    for e in slices:
        i = e["args"]["index"]
        expect(name, i not in by_index, f"instruction {i} twice")
        by_index[i] = e
    expect(name, sorted(by_index) == list(range(len(expected_mnemonics))),
           f"{len(by_index)} slices for {len(expected_mnemonics)} instructions")
    for i, e in by_index.items():
        if i >= len(expected_mnemonics):
            continue
        expect(name, e["name"] == expected_mnemonics[i], f"#{i} is {e['name']}, dis says {expected_mnemonics[i]}")
        file, line = e["args"]["source"].rsplit(":", 1)
        text = source_lines[int(line) - 1].strip() if 0 < int(line) <= len(source_lines) else ""
        expect(name, text.startswith(e["name"] + " "), f"#{i} {e['args']['source']} is {text!r}")
        expect(name, e["dur"] > 0 and abs(e["dur"] - e["args"]["cycles"] / clocks.get(e["tid"], 1) / 1000) < EPS,
               f"#{i} dur {e['dur']} for {e['args']['cycles']} cycles")
        for d in e["args"]["deps"]:
            j = d["index"]
            expect(name, j < i, f"#{i} depends on later #{j}")
            if j in by_index:
                end = by_index[j]["ts"] + by_index[j]["dur"]
                expect(name, e["ts"] >= end - EPS, f"#{i} starts at {e['ts']} before #{j} ends at {end}")
            expect(name, d["kind"] and set(d["kind"].split("+")) <= {"RAW", "WAR", "WAW", "accumulator"}, str(d))
    for tid in range(5):
        mine = sorted((e for e in slices if e["tid"] == tid), key=lambda e: e["args"]["index"])
        for a, b in zip(mine, mine[1:]):
            expect(name, b["ts"] >= a["ts"] + a["dur"] - EPS,
                   f"engine {tid}: #{b['args']['index']} at {b['ts']} overlaps #{a['args']['index']} ending {a['ts'] + a['dur']}")
    return slices


def check_profile(name, out, slices):
    """The --profile table against the trace: counts and busy cycles per engine, and the span."""
    engines = ["tensor", "vector", "scalar", "gpsimd", "dma"]
    span = max((e["ts"] + e["dur"] for e in slices), default=0)
    m = re.search(r"estimated ([0-9.]+) us", out)
    expect(name, m and abs(float(m.group(1)) - span) < 1e-3, f"span {m and m.group(1)} vs trace {span}")
    for tid, engine in enumerate(engines):
        mine = [e for e in slices if e["tid"] == tid]
        row = re.search(rf"^{engine}\s+(\d+)\s+(\d+)\s+[0-9.]+\s+([0-9.]+)\s+([0-9.]+)%$", out, re.M)
        if not expect(name, row, f"no {engine} row in:\n{out}"):
            continue
        expect(name, int(row.group(1)) == len(mine), f"{engine} count {row.group(1)} vs {len(mine)}")
        expect(name, int(row.group(2)) == sum(e["args"]["cycles"] for e in mine), f"{engine} cycles")
        busy = sum(e["dur"] for e in mine)
        expect(name, abs(float(row.group(3)) - busy) < 2e-3, f"{engine} busy {row.group(3)} vs {busy}")
        if span > 0:
            expect(name, abs(float(row.group(4)) - 100 * busy / span) < 0.1, f"{engine} utilisation {row.group(4)}")
    top = re.findall(r"^\s*(\d+)\s+(\S+:\d+)\s+(\w+)\s+(\w+)\s+(\d+)\s", out.split("top ", 1)[-1], re.M)
    expect(name, len(top) == min(10, len(slices)), f"top rows: {len(top)}")
    durations = sorted((e["dur"] for e in slices), reverse=True)
    for rank, (_, src, engine, mnemonic, cycles) in enumerate(top):
        match = [e for e in slices if e["args"]["source"] == src and e["name"] == mnemonic and e["args"]["cycles"] == int(cycles)]
        expect(name, match and abs(match[0]["dur"] - durations[rank]) < EPS, f"top row {rank + 1}: {src} {mnemonic}")


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
