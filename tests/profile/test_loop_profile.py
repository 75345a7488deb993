#!/usr/bin/python3
"""Runtime loops (SEMANTICS S17) in `nisa run --profile` / `--trace` (S17.4)
and `--max-steps` (S17.2), on small hand-checked programs.

Checked, independently of nisa's own code:
- the trace holds one slice per instruction run: a loop body's instructions
  once per iteration, fori_loop/while_loop once per entry, end_loop once per
  iteration (counted from the programs' trip counts, written here);
- a loop instruction's slice costs the spec's cost constant (SEQ_BRANCH,
  SEQ_REGISTER read from isa-spec/isa.json) at the DMA queue's clock, on the
  DMA queue's row (S6: sequencer instructions occupy that row);
- a loop of dma_copy on the DMA row is laid out back to back: the row's
  slices follow each other in run order and the span is their sum;
- the --profile top list shows each instruction's runs and its cycles summed
  over them (the unrolled program's cycles for the same instruction);
- two cores: each core's slices on its own process, with its own trip counts;
- --max-steps: an endless while_loop stops with exit 3 and the documented
  message, at the exact step count (iterations x (body + end_loop)).

usage: test_loop_profile.py NISA SOURCE_DIR
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import time

NISA, ROOT = sys.argv[1], sys.argv[2]
failures = []
work = tempfile.mkdtemp(prefix="nisa_loop_profile_")
EPS = 2e-6  # µs: ts and dur are printed to the picosecond

with open(os.path.join(ROOT, "isa-spec", "isa.json")) as f:
    SPEC = json.load(f)
CONSTANTS = SPEC["cost"]["constants"] if "constants" in SPEC["cost"] else SPEC["cost"]


def constant(name):
    def find(node):
        if isinstance(node, dict):
            if name in node and isinstance(node[name], (int, float)):
                return node[name]
            for v in node.values():
                r = find(v)
                if r is not None:
                    return r
        return None
    return find(SPEC["cost"])


SEQ_BRANCH, SEQ_REGISTER = constant("SEQ_BRANCH"), constant("SEQ_REGISTER")


def expect(name, condition, detail=""):
    if not condition:
        failures.append(f"{name}: {detail}")
    return condition


def run(*args):
    p = subprocess.run([NISA, *args], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def write(name, text):
    path = os.path.join(work, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def traced(name, path, *extra):
    trace_file = os.path.join(work, name + ".json")
    rc, out, err = run("run", path, "--profile", "--trace", trace_file, *extra)
    assert rc == 0, f"{name}: exit {rc}: {err}"
    with open(trace_file) as f:
        trace = json.load(f)
    slices = [e for e in trace["traceEvents"] if e["ph"] == "X"]
    clocks = {}
    for e in trace["traceEvents"]:
        if e["ph"] == "M" and e["name"] == "thread_name":
            engine, ghz = re.fullmatch(r"(\S+) \(([\d.]+) GHz\)", e["args"]["name"]).groups()
            clocks[(e["pid"], e["tid"])] = (engine, float(ghz))
    return out, trace, slices, clocks


def counts(slices):
    c = {}
    for e in slices:
        c[e["name"]] = c.get(e["name"], 0) + 1
    return c


# A fori_loop of 7 iterations around a dma_copy, and a while_loop counting a
# register down from 3 around a tensor_scalar.
N_FORI, N_WHILE = 7, 3
loops = write("loops.nasm", f""".arch trn2
.hbm  x f32 [128, 64] input = 1
.hbm  y f32 [128, 64] output
.sbuf t f32 [128, 64]
.reg i
.reg n
dma_copy dst=t, src=x
fori_loop var=i, lower=0, upper={N_FORI}
dma_copy dst=y, src=t
end_loop
register_move dst=n, src={N_WHILE}
while_loop cond=n
tensor_scalar dst=t, data=t, op0=add, operand0=1.0
register_op dst=n, src0=n, src1=1, op=subtract
end_loop
dma_copy dst=y, src=t
""")
out, trace, slices, clocks = traced("loops", loops)
expected = {"dma_copy": 2 + N_FORI, "fori_loop": 1, "end_loop": N_FORI + N_WHILE, "register_move": 1,
            "while_loop": 1, "tensor_scalar": N_WHILE, "register_op": N_WHILE}
expect("loops: slices per instruction", counts(slices) == expected, f"{counts(slices)} != {expected}")
for e in slices:
    engine, ghz = clocks[(e["pid"], e["tid"])]
    cost = {"fori_loop": SEQ_BRANCH, "while_loop": SEQ_BRANCH, "end_loop": SEQ_BRANCH,
            "register_move": SEQ_REGISTER, "register_op": SEQ_REGISTER}.get(e["name"])
    if cost is None:
        continue
    expect("loops: sequencer row", engine == "dma", f"{e['name']} on {engine}")
    expect("loops: sequencer cost", int(e["args"]["cycles"]) == cost, f"{e['name']}: {e['args']['cycles']} != {cost}")
    expect("loops: sequencer duration", abs(e["dur"] - cost / ghz / 1000) < EPS, f"{e['name']}: {e['dur']}")
# The DMA row runs in order, without overlap; the loop's dma_copy and
# end_loop alternate, one pair per iteration.
dma = [e for e in slices if clocks[(e["pid"], e["tid"])][0] == "dma"]
names = [e["name"] for e in dma]
expect("loops: DMA row order", names[:2 + 2 * N_FORI] == ["dma_copy", "fori_loop"] + ["dma_copy", "end_loop"] * N_FORI,
       names)
for a, b in zip(dma, dma[1:]):
    expect("loops: DMA row overlap", b["ts"] >= a["ts"] + a["dur"] - EPS, f"{a} then {b}")
# Each iteration's dma_copy waits for nothing but the row (it writes y, which
# only the row's own earlier copies wrote): the iterations are back to back.
body = dma[1:2 + 2 * N_FORI]
for a, b in zip(body, body[1:]):
    expect("loops: back to back", abs(b["ts"] - (a["ts"] + a["dur"])) < EPS, f"{a['name']} {a['ts']}+{a['dur']} -> {b['ts']}")
# The profile: runs and cycles of all runs.
rows = {}
for line in out.splitlines():
    m = re.match(r"\s*\d+\s+(\S+:\d+)\s+(\S+)\s+(\S+)\s+(\d+)\s+(\d+)\s+([\d.]+)\s+([\d.]+)$", line)
    if m:
        rows[m.group(1)] = (m.group(3), int(m.group(4)), int(m.group(5)))
expect("loops: profile header", f" {sum(expected.values())} instructions run (10 in the program;" in out, out)
end_fori = rows.get(f"{loops}:10")
expect("loops: end_loop row", end_fori == ("end_loop", N_FORI, N_FORI * SEQ_BRANCH), f"{end_fori}\n{out}")
copy_rows = [r for src, r in rows.items() if src == f"{loops}:9"]
one_copy = [e for e in slices if e["name"] == "dma_copy" and e["args"]["source"] == f"{loops}:9"]
expect("loops: dma_copy row", copy_rows == [("dma_copy", N_FORI, sum(int(e["args"]["cycles"]) for e in one_copy))],
       f"{copy_rows}\n{out}")
expect("loops: runs of one instruction", len({e["args"]["cycles"] for e in one_copy}) == 1, one_copy)

# The loop's body costs what the same body unrolled costs.
unrolled = write("unrolled.nasm", f""".arch trn2
.hbm  x f32 [128, 64] input = 1
.hbm  y f32 [128, 64] output
.sbuf t f32 [128, 64]
dma_copy dst=t, src=x
.rept k, {N_FORI}
dma_copy dst=y, src=t
.endr
""")
_, _, unrolled_slices, _ = traced("unrolled", unrolled)
expect("loops: cycles as unrolled", int(unrolled_slices[1]["args"]["cycles"]) == int(one_copy[0]["args"]["cycles"]),
       f"{unrolled_slices[1]} vs {one_copy[0]}")

# A loop that never runs its body: the entry only.
empty = write("empty.nasm", """.arch trn2
.hbm  y f32 [128, 8] output
.sbuf t f32 [128, 8]
.reg i
memset dst=t, value=2
fori_loop var=i, lower=5, upper=5
tensor_scalar dst=t, data=t, op0=add, operand0=1.0
end_loop
dma_copy dst=y, src=t
""")
_, _, slices, _ = traced("empty", empty)
expect("empty loop", counts(slices) == {"memset": 1, "fori_loop": 1, "dma_copy": 1}, counts(slices))

# Nested loops whose inner trip count changes per outer iteration (the
# timeline lays out what ran, not one trip count per loop): inner i runs
# j times in outer iteration j (0 + 1 + 2 + 3 = 6).
nested = write("nested.nasm", """.arch trn2
.hbm  y f32 [128, 8] output
.sbuf t f32 [128, 8]
.reg j
.reg i
memset dst=t, value=0
fori_loop var=j, lower=0, upper=4
fori_loop var=i, lower=0, upper=j
tensor_scalar dst=t, data=t, op0=add, operand0=1.0
end_loop
end_loop
dma_copy dst=y, src=t
""")
_, _, slices, _ = traced("nested", nested)
expect("nested", counts(slices) == {"memset": 1, "fori_loop": 5, "tensor_scalar": 6, "end_loop": 10, "dma_copy": 1},
       counts(slices))

# Two cores, each its own trip count: per core, its own slices.
cores = write("cores.nasm", """.arch trn2
.cores 2
.hbm  y f32 [128, 8] output
.core 0
.sbuf t f32 [128, 8]
.reg i
memset dst=t, value=0
fori_loop var=i, lower=0, upper=5
tensor_scalar dst=t, data=t, op0=add, operand0=1.0
end_loop
core_barrier data=y, cores=[0, 1]
.core 1
.sbuf u f32 [128, 8]
.reg i
memset dst=u, value=0
fori_loop var=i, lower=0, upper=2
tensor_scalar dst=u, data=u, op0=add, operand0=1.0
end_loop
core_barrier data=y, cores=[0, 1]
dma_copy dst=y, src=u
""")
out, trace, slices, clocks = traced("cores", cores)
per_core = {pid: counts([e for e in slices if e["pid"] == pid]) for pid in (1, 2)}
expect("cores", per_core == {1: {"memset": 1, "fori_loop": 1, "tensor_scalar": 5, "end_loop": 5, "core_barrier": 1},
                             2: {"memset": 1, "fori_loop": 1, "tensor_scalar": 2, "end_loop": 2, "core_barrier": 1,
                                 "dma_copy": 1}}, per_core)
barriers = [e for e in slices if e["name"] == "core_barrier"]
expect("cores: meeting", len(barriers) == 2 and abs(barriers[0]["ts"] - barriers[1]["ts"]) < EPS, barriers)

# --max-steps (S17.2): an endless while_loop stops, exit 3, naming its line.
endless = write("endless.nasm", """.arch trn2
.hbm  y f32 [128, 8] output
.sbuf t f32 [128, 8]
.reg c
register_move dst=c, src=1
memset dst=t, value=0
while_loop cond=c
tensor_scalar dst=t, data=t, op0=add, operand0=1.0
end_loop
dma_copy dst=y, src=t
""")
t0 = time.perf_counter()
rc, out, err = run("run", endless, "--max-steps", "1000")
seconds = time.perf_counter() - t0
expect("endless: exit", rc == 3, f"exit {rc}: {err}")
expect("endless: message", f"{endless}:7: error: while_loop: the run's loops have run more than 1000 instructions" in err
       and "--max-steps" in err and err.count("\n") == 1, repr(err))
expect("endless: quick", seconds < 2, f"{seconds:.2f} s")
# A fori_loop of 10 iterations of one instruction counts 10 x (1 + end_loop) = 20 steps.
ten = write("ten.nasm", """.arch trn2
.hbm  y f32 [128, 8] output
.sbuf t f32 [128, 8]
.reg i
memset dst=t, value=0
fori_loop var=i, lower=0, upper=10
tensor_scalar dst=t, data=t, op0=add, operand0=1.0
end_loop
dma_copy dst=y, src=t
""")
rc, _, err = run("run", ten, "--max-steps", "20")
expect("--max-steps 20", rc == 0, f"exit {rc}: {err}")
rc, _, err = run("run", ten, "--max-steps", "19")
expect("--max-steps 19", rc == 3 and "more than 19 instructions" in err, f"exit {rc}: {err}")
for bad in ("0", "-1", "many"):
    rc, _, err = run("run", ten, "--max-steps", bad)
    expect(f"--max-steps {bad}", rc == 2 and "--max-steps" in err, f"exit {rc}: {err}")

for f in failures:
    print("FAIL", f)
print(f"{len(failures)} failure(s); files in {work}")
sys.exit(1 if failures else 0)
