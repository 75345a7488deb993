"""The reference model's own reader of the .nasm language (LANGUAGE.md section 2).

Written from LANGUAGE.md alone so that the model can run any program text, not
only the ones the generator builds. It expands .rept, evaluates expressions with
C integer division, resolves operands by the kinds the ISA spec gives them, and
fills defaults from the spec. It assumes the program is valid (nisa's assembler
is what reports errors); it raises ValueError on anything it cannot read.
"""
import json
import os
import re
from dataclasses import dataclass, field

import numpy as np

import ref_dtypes

SPEC_PATH = os.path.join(os.path.dirname(__file__), "..", "..", "isa-spec", "isa.json")
FP32_MIN = float(np.finfo(np.float32).min)  # -3.4028234663852886e38, bits 0xFF7FFFFF (S2.4)
FP32_MAX = float(np.finfo(np.float32).max)


def load_spec():
    with open(SPEC_PATH) as f:
        return json.load(f)


SPEC = load_spec()
INSTRUCTIONS = {ins["name"]: ins for ins in SPEC["instructions"]}
ENUMS = {name: {v["name"]: v["name"] for v in values} for name, values in SPEC["enums"].items()}
for _name, _values in SPEC["enums"].items():
    for _v in _values:
        for _alias in _v.get("aliases", []):
            ENUMS[_name][_alias] = _v["name"]


@dataclass
class Decl:
    name: str
    memory: str            # hbm | sbuf | psum
    dtype: str
    shape: list
    role: str = None       # HBM only
    offset: int = None     # SBUF/PSUM explicit @ offset, else None
    init: object = None    # None, "iota" or a number
    line: int = 0
    core: int = None       # LANGUAGE.md 2.7: the core whose section declares it; None: shared


@dataclass
class View:
    """A tensor operand. Both forms are kept as offset + [(step, num)] over the
    row-major flattened tensor (LANGUAGE.md 2.3; for SBUF/PSUM the flat index
    is partition * elements_per_partition + free index, so pattern[0] is the
    partition dimension). `dims` holds the slices of the slice form (None for
    NAME.ap(...))."""
    name: str
    dims: list            # [(start, count, step)] one per declared dimension, or None
    offset: int = 0
    pattern: list = None  # [(step, num)], outermost first
    part_start: int = 0   # physical first partition (SBUF/PSUM); HBM: 0 for patterns
    indirect: str = None  # NKI 0.6 dynamic access: "vector" or "scalar" (nki-aps); "tensor": .indirect() (S1.7)
    indirect_dim: int = 0
    index_stride: int = None  # elements one index step moves when given (LANGUAGE.md 2.3)
    index: object = None  # the index View when indirect
    index_register: str = None  # scalar_offset=REG (SEMANTICS S17.3): the register holding the index

    @property
    def counts(self):
        return [n for _, n in self.pattern]

    @property
    def part_count(self):
        return self.pattern[0][1]

    def flat_index(self):
        """Flat element index of every element of the view, shaped like the view
        (a dynamic view: its static part, index 0; a vector_offset ignores the
        first step, nki-aps)."""
        idx = np.full(self.counts, self.offset, dtype=np.int64)
        for axis, (step, num) in enumerate(self.pattern):
            if axis == 0 and self.indirect == "vector":
                continue
            shape = [1] * len(self.pattern)
            shape[axis] = num
            idx = idx + (np.arange(num, dtype=np.int64) * step).reshape(shape)
        return idx


def _affine(view, decl):
    """Fills view.offset/pattern from slices (strides of the declared shape)."""
    stride, offset, pattern = 1, 0, []
    for (start, count, step), size in reversed(list(zip(view.dims, decl.shape))):
        offset += start * stride
        pattern.insert(0, (step * stride, count))
        stride *= size
    view.offset, view.pattern = offset, pattern
    view.part_start = view.dims[0][0]
    return view


@dataclass(frozen=True)
class Reg:
    """A register operand (SEMANTICS S17.1): a name declared with `.reg`."""
    name: str


@dataclass
class Instr:
    mnemonic: str
    ops: dict
    line: int


@dataclass
class Program:
    arch: str = "trn2"
    decls: dict = field(default_factory=dict)
    instrs: list = field(default_factory=list)
    # LANGUAGE.md 2.7, a program for several cores (`.cores N`, N > 1): `decls` holds the
    # shared HBM tensors (declared before the first `.core`), `sections[k]` core k's side:
    # a Program with the shared tensors and its own, and its instructions (a section
    # never opened has none). `current_core` is the section being read.
    cores: int = 1
    sections: list = field(default_factory=list)
    current_core: int = None
    nki: str = SPEC["default_nki_version"]  # `.nki` (LANGUAGE.md 2.1): the NKI version whose forms apply
    # `.reg NAME` (SEMANTICS S17.1): {name: declaring line}, in declaration order; a
    # section has its own and those declared before the first `.core`
    registers: dict = field(default_factory=dict)

    def target(self):
        """Where the next declaration or instruction goes: the open section, or the program."""
        return self.sections[self.current_core] if self.current_core is not None else self


# ---- expressions ----

_TOKEN = re.compile(r"\s*(?:(0[xX][0-9a-fA-F]+)|(\d+\.\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?|\d+[eE][+-]?\d+)"
                    r"|(\d+)|(fp32\.min|fp32\.max|[A-Za-z_][A-Za-z0-9_]*)|(.))")


def _tokens(text):
    out = []
    for m in _TOKEN.finditer(text):
        hexa, flt, integer, ident, other = m.groups()
        if hexa:
            out.append(("num", int(hexa, 16)))
        elif flt:
            out.append(("num", float(flt)))
        elif integer:
            out.append(("num", int(integer)))
        elif ident:
            out.append(("id", ident))
        elif other and not other.isspace():
            out.append(("op", other))
    return out


def _c_div(a, b):
    if isinstance(a, int) and isinstance(b, int):
        q = abs(a) // abs(b)
        return q if (a >= 0) == (b >= 0) else -q
    return a / b


def _c_mod(a, b):
    if isinstance(a, int) and isinstance(b, int):
        return a - _c_div(a, b) * b
    return float(np.fmod(a, b))


def evaluate(text, env):
    toks = _tokens(text)
    pos = [0]

    def peek():
        return toks[pos[0]] if pos[0] < len(toks) else (None, None)

    def take():
        t = peek()
        pos[0] += 1
        return t

    def primary():
        kind, val = take()
        if kind == "num":
            return val
        if kind == "id":
            named = {"inf": float("inf"), "nan": float("nan"), "fp32.min": FP32_MIN, "fp32.max": FP32_MAX}
            if val in named:
                return named[val]
            if val in env:
                return env[val]
            raise ValueError(f"unknown name {val!r} in {text!r}")
        if (kind, val) == ("op", "("):
            v = additive()
            if take() != ("op", ")"):
                raise ValueError(f"missing ) in {text!r}")
            return v
        if (kind, val) == ("op", "-"):
            return -primary()
        if (kind, val) == ("op", "+"):
            return primary()
        raise ValueError(f"bad expression {text!r}")

    def multiplicative():
        v = primary()
        while peek() in (("op", "*"), ("op", "/"), ("op", "%")):
            _, o = take()
            r = primary()
            v = v * r if o == "*" else _c_div(v, r) if o == "/" else _c_mod(v, r)
        return v

    def additive():
        v = multiplicative()
        while peek() in (("op", "+"), ("op", "-")):
            _, o = take()
            r = multiplicative()
            v = v + r if o == "+" else v - r
        return v

    v = additive()
    if pos[0] != len(toks):
        raise ValueError(f"trailing text in expression {text!r}")
    return v


def split_top(text, sep=","):
    """Split on `sep` outside brackets, parentheses and quoted strings."""
    parts, depth, cur, quoted = [], 0, "", False
    for ch in text:
        if ch == '"':
            quoted = not quoted
        elif quoted:
            pass
        elif ch in "[(":
            depth += 1
        elif ch in "])":
            depth -= 1
        if ch == sep and depth == 0 and not quoted:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    parts.append(cur)
    return [p.strip() for p in parts]


def strip_comment(line):
    out, quoted = "", False
    for ch in line:
        if ch == '"':
            quoted = not quoted
        if not quoted and ch in ";#":
            break
        out += ch
    return out.strip()


# ---- operands ----

_TENSOR_REF = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)\s*(?:\[(.*)\])?$", re.S)


_PATTERN_REF = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)\.ap\((.*)\)$", re.S)


def parse_pattern_view(text, prog, env):
    """NAME.ap(pattern=[[step, num], ...], offset=K), keywords optional."""
    m = _PATTERN_REF.match(text.strip())
    if not m or m.group(1) not in prog.decls:
        return None
    decl = prog.decls[m.group(1)]
    args = {}
    for position, arg in enumerate(split_top(m.group(2))):
        key, eq, value = arg.partition("=")
        if eq and key.strip() in ("pattern", "offset", "vector_offset", "scalar_offset", "indirect_dim", "index_stride", "indirect"):
            args[key.strip()] = value.strip()
        else:
            args[("pattern", "offset")[position]] = arg.strip()
    pairs = split_top(args["pattern"].strip()[1:-1])
    pattern = []
    for pair in pairs:
        step, num = split_top(pair.strip()[1:-1])
        pattern.append((evaluate(step, env), evaluate(num, env)))
    offset = evaluate(args["offset"], env) if "offset" in args else 0
    view = View(decl.name, None, offset, pattern)
    for kind in ("vector", "scalar"):
        if f"{kind}_offset" in args:
            view.indirect = kind
            if kind == "scalar" and args["scalar_offset"] in prog.registers:  # S17.3: a register's value
                view.index_register = args["scalar_offset"]
            else:
                view.index = parse_view(args[f"{kind}_offset"], prog, env)
            view.indirect_dim = evaluate(args["indirect_dim"], env) if "indirect_dim" in args else 0
            view.index_stride = evaluate(args["index_stride"], env) if "index_stride" in args else None
    if "indirect" in args:  # Tensor Indirection: column i at index value * the free step (S1.7)
        view.indirect, view.indirect_dim = "tensor", 1
        view.index = parse_view(args["indirect"], prog, env)
    if decl.memory != "hbm":
        view.part_start = offset // int(np.prod(decl.shape[1:], dtype=np.int64))
    return view


def parse_view(text, prog, env):
    if ".ap(" in text:
        return parse_pattern_view(text, prog, env)
    m = _TENSOR_REF.match(text.strip())
    if not m or m.group(1) not in prog.decls:
        return None
    decl = prog.decls[m.group(1)]
    slices = split_top(m.group(2)) if m.group(2) is not None else []
    dims = []
    for d, size in enumerate(decl.shape):
        if d >= len(slices):
            dims.append((0, size, 1))
            continue
        parts = slices[d].split(":")
        if len(parts) == 1:
            a = evaluate(parts[0], env)
            dims.append((a, 1, 1))
            continue
        a = evaluate(parts[0], env) if parts[0].strip() else 0
        b = evaluate(parts[1], env) if parts[1].strip() else size
        step = evaluate(parts[2], env) if len(parts) > 2 and parts[2].strip() else 1
        count = max(0, -(-(b - a) // step))
        dims.append((a, count, step))
    return _affine(View(decl.name, dims), decl)


def parse_list(text, entry_size, env):
    """LANGUAGE.md 2.4 list parameters: `[1, 2]` -> [1, 2]; `[[1, 64], [2, 8]]` -> [[1, 64], [2, 8]]
    (entries of `entry_size` integers); a flat list may be one bare integer (`axis=1` is `[1]`)."""
    text = text.strip()
    if not text.startswith("["):
        return [int(evaluate(text, env))]
    inner = text[1:-1].strip()
    items = split_top(inner) if inner else []
    if entry_size == 1:
        return [int(evaluate(item, env)) for item in items]
    return [[int(evaluate(x, env)) for x in split_top(item.strip()[1:-1])] for item in items]


def _spec_default(op_spec):
    d = op_spec["default"]
    if isinstance(d, str) and d == "fp32.min":
        return FP32_MIN
    if op_spec["kind"] == "enum":
        return ENUMS[op_spec["enum"]][d]
    return d


def parse_instruction(mnemonic, text, prog, env, line):
    spec = INSTRUCTIONS[mnemonic]
    given = {}
    for item in split_top(text):
        if not item:
            continue
        key, _, value = item.partition("=")
        given[key.strip()] = value.strip()
    ops = {}
    for op_spec in spec["operands"]:
        name, kind = op_spec["name"], op_spec["kind"]
        if name not in given:
            if "default" in op_spec:
                ops[name] = _spec_default(op_spec)
            continue
        value = given.pop(name)
        if kind == "tensor":
            view = parse_view(value, prog, env)
            if view is None:
                raise ValueError(f"line {line}: {name}: not a tensor: {value}")
            ops[name] = view
        elif kind == "register":  # S17.1: a `.reg` name
            if value not in prog.registers:
                raise ValueError(f"line {line}: {name}: not a register: {value}")
            ops[name] = Reg(value)
        elif kind == "register_or_int":
            ops[name] = Reg(value) if value in prog.registers else int(evaluate(value, env))
        elif kind == "tensor_or_scalar":
            view = parse_view(value, prog, env)
            ops[name] = view if view is not None else evaluate(value, env)
        elif kind == "enum":
            ops[name] = ENUMS[op_spec["enum"]][value]
        elif kind == "bool":
            ops[name] = {"true": True, "false": False}[value]
        elif kind == "string":  # "text" (LANGUAGE.md 2.3: no '"' inside)
            if len(value) < 2 or value[0] != '"' or value[-1] != '"':
                raise ValueError(f"line {line}: {name}: not a quoted string: {value}")
            ops[name] = value[1:-1]
        elif kind == "list":
            ops[name] = parse_list(value, len(op_spec["items"]), env)
        elif kind == "tensor_list":  # `[a, b[0:4]]` (dma_compute's srcs)
            inner = value.strip()
            if not (inner.startswith("[") and inner.endswith("]")):
                raise ValueError(f"line {line}: {name}: not a list of tensors: {value}")
            views = [parse_view(v, prog, env) for v in split_top(inner[1:-1])] if inner[1:-1].strip() else []
            if any(v is None for v in views):
                raise ValueError(f"line {line}: {name}: not a list of tensors: {value}")
            ops[name] = views
        else:  # scalar, int
            ops[name] = evaluate(value, env)
    if given:
        raise ValueError(f"line {line}: unknown keys {sorted(given)}")
    return Instr(mnemonic, ops, line)


# ---- directives and .rept ----

def _parse_decl(directive, rest, prog, env, line):
    m = re.match(r"^([A-Za-z_]\w*)\s+(\w+)\s*\[(.*?)\]\s*(.*)$", rest)
    if not m:
        raise ValueError(f"line {line}: bad declaration")
    name, dtype, dims, tail = m.groups()
    shape = [evaluate(d, env) for d in split_top(dims)]
    decl = Decl(name, directive[1:], ref_dtypes.canonical(dtype), shape, line=line,
                core=prog.current_core)
    if directive == ".hbm":
        role, _, init = tail.partition("=")
        decl.role = role.strip()
        init = init.strip()
        if init:
            decl.init = "iota" if init == "iota" else evaluate(init, env)
    elif tail.startswith("@"):
        decl.offset = evaluate(tail[1:], env)
    prog.target().decls[name] = decl


def _open_section(prog, core):
    """`.core K` (LANGUAGE.md 2.7): core K's side sees the shared tensors and its own."""
    while len(prog.sections) <= core:
        prog.sections.append(Program(prog.arch, dict(prog.decls), registers=dict(prog.registers)))
    prog.current_core = core


def _process(lines, prog, env):
    i = 0
    while i < len(lines):
        line_no, text = lines[i]
        i += 1
        if not text:
            continue
        if prog.current_core is not None:  # in a section, `core` is its number (LANGUAGE.md 2.7)
            env["core"] = prog.current_core
        head, _, rest = text.partition(" ")
        rest = rest.strip()
        if head == ".rept":
            var, count = split_top(rest)
            depth, body = 1, []
            while True:
                ln, t = lines[i]
                i += 1
                h = t.split(" ")[0] if t else ""
                depth += h == ".rept"
                depth -= h == ".endr"
                if depth == 0:
                    break
                body.append((ln, t))
            for k in range(evaluate(count, env)):
                _process(body, prog, {**env, var.strip(): k})
        elif head == ".arch":
            prog.arch = rest
        elif head == ".nki":
            if rest not in SPEC["nki_versions"]:
                raise ValueError(f"line {line_no}: unknown NKI version {rest!r}")
            prog.nki = rest
        elif head == ".equ":
            name, expr = split_top(rest)
            env[name] = evaluate(expr, env)
        elif head == ".cores":
            prog.cores = int(evaluate(rest, env))
            env.setdefault("core", 0)  # each core's pass of a program without sections sets its own
        elif head == ".core":
            _open_section(prog, int(evaluate(rest, env)))
        elif head in (".hbm", ".sbuf", ".psum"):
            _parse_decl(head, rest, prog, env, line_no)
        elif head == ".reg":
            prog.target().registers[rest] = line_no
        elif head in (".file", ".loc"):
            pass
        elif head in INSTRUCTIONS:
            prog.target().instrs.append(parse_instruction(head, rest, prog.target(), env, line_no))
        else:
            raise ValueError(f"line {line_no}: unknown line {text!r}")


def _read(lines, cores, core):
    prog = Program(cores=cores or 1)
    _process(lines, prog, {} if cores is None and core is None else {"core": core or 0})
    return prog


def read_program(text, cores=None):
    """The program of `text`; `cores`: `--cores N` (LANGUAGE.md 2.7), for a text
    without `.cores`. A program for several cores without `.core` lines is every
    core's program: read once per core with `core` its number, the HBM tensors
    (declared once, not depending on `core`) shared, the rest the core's own."""
    lines = [(n + 1, strip_comment(t)) for n, t in enumerate(text.splitlines())]
    # A mnemonic may be followed by a tab rather than a space.
    lines = [(n, re.sub(r"^(\S+)\s+", r"\1 ", t)) for n, t in lines]
    prog = _read(lines, cores, None)
    if prog.cores > 1 and not prog.sections:
        for k in range(prog.cores):
            own = _read(lines, cores, k)
            section = Program(prog.arch, own.decls, own.instrs, registers=own.registers)
            for d in own.decls.values():
                d.core = None if d.memory == "hbm" else k
            prog.sections.append(section)
        prog.decls = {name: d for name, d in prog.sections[0].decls.items() if d.memory == "hbm"}
    if prog.cores > 1:
        _open_section(prog, prog.cores - 1)  # sections never opened: no instructions
        prog.current_core = None
        for section in prog.sections:
            section.arch, section.nki = prog.arch, prog.nki
    return prog
