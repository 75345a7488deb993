"""Registers and runtime loops (issue 29): NKI's VirtualRegister (0.6
`nisa.register_alloc`) and NkiScalar (0.7 `nisa.scalar_load`), and the
loops whose trip count a register gives (`nl.fori_loop`, `nl.while_loop`,
`nl.dynamic_range`), recorded once, as loops (SEMANTICS S17).

A register is a 32-bit signed integer of the engine sequencers. The kernel
declares it (`.reg NAME`, Recording.registers) and sets it with register_move,
register_load or register_op; loops are `fori_loop` / `while_loop` ... `end_loop`
around the body, which the kernel's Python runs once. Recording.loops holds
the loops open at the point being recorded; a loop still open when the kernel
returns (a `break` out of a dynamic_range body) is an error at its line.
"""
import linecache
import numbers
import re

from . import _record
from ._record import _state, recording

INT32_MIN, INT32_MAX = -2 ** 31, 2 ** 31 - 1

# The instructions recorded here (the .nasm forms of SEMANTICS S17).
_MOVE = _record.form("register_move", ("dst", "src"))
_LOAD = _record.form("register_load", ("dst", "src"))
_STORE = _record.form("register_store", ("dst", "src"))
_OP = _record.form("register_op", ("dst", "src0", "src1", "op"))
_FORI = _record.form("fori_loop", ("var", "lower", "upper", "step"))
_WHILE = _record.form("while_loop", ("cond",))
_END = _record.form("end_loop", ())


class Register:
    """One declared register of a kernel call: its name (given with the
    tensors' names, Recording.name_the_rest), its index in declaration order
    (a view's index_register in the handover) and the line of the call that
    made it."""
    __slots__ = ("token", "core", "index", "created_at", "hint", "name")

    def __init__(self, rec, hint, named_by=_record._assigned_name):
        self.token, self.core = rec.token, rec.core
        self.created_at = rec.location()
        self.hint = named_by(self.created_at) or hint
        self.name = None
        self.index = len(rec.registers)
        rec.registers.append(self)

    def render(self):
        return self.name

    def __repr__(self):
        return f"{type(self).__name__}({self.name or self.hint})"

    def _value_unknown(self, *args):
        raise _record.misuse(f"a {type(self).__name__}'s value is not known while the kernel is recorded (it is "
                             "set on the device): use it as a loop bound (or in `while reg:`), a scalar_offset, "
                             "or store it with register_store")

    __bool__ = __int__ = __index__ = __float__ = _value_unknown


class VirtualRegister(Register):
    """NKI 0.6's register (nisa.register_alloc): set by register_move,
    register_load; no arithmetic. `while reg:` is a runtime loop (_while_test)."""
    __slots__ = ()

    def __bool__(self):
        return _while_test(self)


class NkiScalar(Register):
    """NKI 0.7's scalar (nisa.scalar_load): a 32-bit register whose `+`, `-`,
    `*` (with an int or another NkiScalar) and unary `-` are traced, each
    recorded as a register_op into a new scalar, wrapping at 32 bits ("a
    32-bit scalar is never widened", nki.isa.NkiScalar)."""
    __slots__ = ()

    def __add__(self, other): return _arithmetic("add", self, other)
    def __radd__(self, other): return _arithmetic("add", other, self)
    def __sub__(self, other): return _arithmetic("subtract", self, other)
    def __rsub__(self, other): return _arithmetic("subtract", other, self)
    def __mul__(self, other): return _arithmetic("multiply", self, other)
    def __rmul__(self, other): return _arithmetic("multiply", other, self)
    def __neg__(self): return _arithmetic("subtract", 0, self)
    def __pos__(self): return self

    def _compare(self, other):
        # nki.isa.NkiScalar: int32 comparisons are "traced, but the result cannot be used".
        raise _record.misuse("comparing NkiScalars (<, ==, ...) gives a result NKI 0.7 cannot use; a loop's "
                             "condition is a register (nl.while_loop) or its bounds (nl.fori_loop)")

    __lt__ = __le__ = __gt__ = __ge__ = __eq__ = __ne__ = _compare
    __hash__ = object.__hash__

    def _not_modeled(self, other):
        raise _record.misuse("NkiScalar has +, - and * (NKI 0.7); other operators are not modeled")

    __truediv__ = __rtruediv__ = __floordiv__ = __rfloordiv__ = __mod__ = __rmod__ = _not_modeled
    __and__ = __or__ = __xor__ = __lshift__ = __rshift__ = __pow__ = _not_modeled


def _own(rec, value, what):
    """`value` as a register of this kernel call (a nisa.Error otherwise)."""
    if not isinstance(value, Register):
        raise rec.error(f"{what}: expected a register (nisa.register_alloc / nisa.scalar_load), not "
                        f"{type(value).__name__}")
    if value.token is not rec.token:
        raise rec.error(f"{what}: {value!r} belongs to another kernel call: a register lives only in the call "
                        "that made it")
    if value.core != rec.core:
        raise rec.error(f"{what}: {value!r} is core {value.core}'s: each core has its own registers (a core's "
                        "sequencers hold them)")
    return value


def _int32(rec, value, what):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise rec.error(f"{what}: expected an integer or a register, not {type(value).__name__}")
    if not INT32_MIN <= value <= INT32_MAX:
        raise rec.error(f"{what}: {int(value)} does not fit a register (32-bit signed, {INT32_MIN} to {INT32_MAX})")
    return int(value)


def operand(rec, value, what):
    """A register or a 32-bit integer, as a register instruction takes it."""
    if isinstance(value, Register):
        return _own(rec, value, what)
    return _int32(rec, value, what)


def _tensor(rec, value, what):
    if getattr(value, "storage", None) is None:
        raise rec.error(f"{what}: expected a tensor of one element, not {type(value).__name__}")
    return value


# --- NKI 0.6: nki.isa's register calls ------------------------------------------
# register_move, register_load and register_store take name= (not recorded),
# as every nki.isa instruction function does.
def register_alloc(x=None):
    """nisa.register_alloc(x=None): a new register (`.reg`), set to the
    integer x when given (register_move)."""
    rec = _state.recording or recording()
    register = VirtualRegister(rec, "reg")
    if getattr(x, "storage", None) is not None:
        # nki-library's MoE kernels pass a one-element int32 tile: its value
        # (register_load), as nisa.register_load(register, x) would set it.
        rec.put(_LOAD, (register, x), ())
    elif x is not None:
        rec.put(_MOVE, (register, _int32(rec, x, "register_alloc(x)")), ())
    return register


def register_move(dst, src, *, name=None):
    """nisa.register_move(dst, src): dst = an integer or another register."""
    rec = _state.recording or recording()
    rec.put(_MOVE, (_own(rec, dst, "register_move dst"), operand(rec, src, "register_move src")), ())


def register_load(dst, src, *, name=None):
    """nisa.register_load(dst, src): dst = the one (int32) element of src."""
    rec = _state.recording or recording()
    rec.put(_LOAD, (_own(rec, dst, "register_load dst"), _tensor(rec, src, "register_load src")), ())


def register_store(dst, src, *, name=None):
    """nisa.register_store(dst, src): the one (int32) element of dst = src."""
    rec = _state.recording or recording()
    rec.put(_STORE, (_tensor(rec, dst, "register_store dst"), _own(rec, src, "register_store src")), ("dst",))


# --- NKI 0.7: scalars -------------------------------------------------------------
def scalar_load(src):
    """nisa.scalar_load(src) (NKI 0.7): an NkiScalar holding the one element
    of the int32 tensor src."""
    rec = _state.recording or recording()
    _only_07(rec, "nisa.scalar_load")
    _tensor(rec, src, "scalar_load src")
    if src.dtype != "int32":  # nisa has no int64 dtype: an int64 tile cannot be made (nl.int64 is not there)
        raise rec.error(f"scalar_load: the source must be int32, not {src.dtype} (NKI 0.7 also takes int64 "
                        "scalars, which nisa does not model: it has no int64 dtype)")
    scalar = NkiScalar(rec, "s")
    rec.put(_LOAD, (scalar, src), ())
    return scalar


def scalar_store(dst, src):
    """nisa.scalar_store(dst, src) (NKI 0.7): the one int32 element of dst = src."""
    rec = _state.recording or recording()
    _only_07(rec, "nisa.scalar_store")
    rec.put(_STORE, (_tensor(rec, dst, "scalar_store dst"), _own(rec, src, "scalar_store src")), ("dst",))


def _only_07(rec, call):
    if rec.nki != "0.7":
        raise rec.error(f"{call} is NKI 0.7's (nisa.nki.install(version=\"0.7\")); NKI 0.6 has register_alloc and "
                        "register_load")


def _arithmetic(op, a, b):
    rec = _state.recording or recording()
    what = f"NkiScalar {op}"
    a, b = operand(rec, a, what), operand(rec, b, what)
    result = NkiScalar(rec, "s")
    rec.put(_OP, (result, a, b, op), ())
    return result


# --- loops ------------------------------------------------------------------------
class Loop:
    """An open loop: its kind and first instruction's index and line, and
    for a `while REG:` statement the register it tests."""
    __slots__ = ("kind", "begin", "location", "tested")

    def __init__(self, kind, begin, location, tested=None):
        self.kind, self.begin, self.location, self.tested = kind, begin, location, tested


def _open(rec, kind, form, values, tested=None):
    instruction = rec.put(form, values, ())
    rec.loops.append(Loop(kind, len(rec.instructions) - 1, instruction.location, tested))


_WHILE_STATEMENT = re.compile(r"^\s*while\b")


def _while_test(register):
    """bool(register): NKI 0.6's `while reg:` (the nki.isa.VirtualRegister
    page's example) runs while the register is not 0, re-read before each
    iteration. Python tests the condition before the body and again after
    it, at the same line: the first test opens a while_loop on the register
    (true: the body is recorded once), the test after the body closes it
    (false). A register tested anywhere else has no value to give."""
    rec = _state.recording or recording()
    where = rec.location()
    loop = rec.loops[-1] if rec.loops else None
    if loop is not None and loop.tested is register and (loop.location.file, loop.location.line) == (where.file, where.line):
        _close(rec, "while_loop")
        return False
    if not _WHILE_STATEMENT.match(linecache.getline(where.file, where.line)):
        register._value_unknown()
    _open(rec, "while_loop", _WHILE, (_own(rec, register, "while"),), tested=register)
    return True


def _close(rec, kind):
    """end_loop for the innermost open loop, which must be the one ending."""
    loop = rec.loops[-1] if rec.loops else None
    if loop is None or loop.kind != kind:
        raise rec.error(f"this {kind} ends while another loop inside it is still open (a break out of a "
                        "dynamic_range or `while REG:` body leaves its loop open)", loop.location if loop else None)
    rec.loops.pop()
    rec.put(_END, (), ())
    rec.loop_ranges.append((loop.begin, len(rec.instructions) - 1))


def _step(rec, step, what):
    if isinstance(step, bool) or not isinstance(step, numbers.Integral) or not 1 <= step <= INT32_MAX:
        raise rec.error(f"{what}: step must be a compile-time positive integer (not a register), got {step!r}")
    return int(step)


_FOR_TARGET = re.compile(r"^\s*for\s+([A-Za-z]\w*)\s+in\b")


def _for_target(location):
    """`i` from the kernel line `for i in nl.dynamic_range(n):`."""
    match = _FOR_TARGET.match(linecache.getline(location.file, location.line))
    return match.group(1) if match else None


def _fori(rec, lower, upper, step, var_class, what, named_by=lambda location: None):
    lower, upper = operand(rec, lower, f"{what} lower"), operand(rec, upper, f"{what} upper")
    step = _step(rec, step, what)
    var = var_class(rec, "i", named_by)
    _open(rec, "fori_loop", _FORI, (var, lower, upper, step))
    return var


def fori_loop(lower, upper, body_fun, step=1):
    """nl.fori_loop: body_fun(i) for i in range(lower, upper, step), the
    bounds integers or registers, recorded once between fori_loop and
    end_loop. i is a register of its own (writing it does not change the
    iteration); NKI 0.7 passes an NkiScalar unless a bound is a
    VirtualRegister (nki.language.fori_loop, v2.33.0)."""
    rec = _state.recording or recording()
    if not callable(body_fun):
        raise rec.error(f"nl.fori_loop: body_fun must be a function of the iteration value, not "
                        f"{type(body_fun).__name__}")
    scalar = rec.nki == "0.7" and not any(isinstance(b, VirtualRegister) for b in (lower, upper))
    var = _fori(rec, lower, upper, step, NkiScalar if scalar else VirtualRegister, "nl.fori_loop")
    body_fun(var)
    _close(rec, "fori_loop")


def while_loop(init, body_fun):
    """nl.while_loop: while the condition register is not 0, cond =
    body_fun(cond). The loop's condition is a register of its own, set from
    init (passed by value); the register the body returns becomes the next
    condition (a register_move into it when it is another register)."""
    rec = _state.recording or recording()
    if not callable(body_fun):
        raise rec.error(f"nl.while_loop: body_fun must be a function of the condition register, not "
                        f"{type(body_fun).__name__}")
    init = _own(rec, init, "nl.while_loop init")
    cond = type(init)(rec, "cond")
    rec.put(_MOVE, (cond, init), ())
    _open(rec, "while_loop", _WHILE, (cond,))
    returned = body_fun(cond)
    if not isinstance(returned, Register):
        raise rec.error(f"nl.while_loop: the body returns the next condition register, not "
                        f"{type(returned).__name__}", rec.loops[-1].location)
    if returned is not cond:
        rec.put(_MOVE, (cond, _own(rec, returned, "nl.while_loop body's result")), ())
    _close(rec, "while_loop")


class DynamicRange:
    """nl.dynamic_range's iterator: the first next() opens the loop (fori_loop)
    and yields its register, the second closes it (end_loop) and stops; the
    `for` body between is recorded once."""
    __slots__ = ("args", "state")

    def __init__(self, args):
        self.args, self.state = args, 0

    def __iter__(self):
        return self

    def __next__(self):
        rec = _state.recording or recording()
        self.state += 1
        if self.state == 1:
            start, stop, step = self.args
            return _fori(rec, start, stop, step, VirtualRegister, "nl.dynamic_range", _for_target)
        if self.state == 2:
            _close(rec, "fori_loop")
        raise StopIteration


def dynamic_range(start, stop=None, step=1):
    """nl.dynamic_range (NKI 0.6; 0.7 has fori_loop instead)."""
    rec = _state.recording or recording()
    if rec.nki == "0.7":
        raise rec.error("nl.dynamic_range is NKI 0.6's; NKI 0.7 has nl.fori_loop(lower, upper, body_fun) instead")
    if stop is None:
        start, stop = 0, start
    operand(rec, start, "nl.dynamic_range start")
    operand(rec, stop, "nl.dynamic_range stop")
    _step(rec, step, "nl.dynamic_range")
    return DynamicRange((start, stop, step))


def check_closed(rec):
    """At the kernel's return: every loop it opened is closed."""
    if rec.loops:
        loop = rec.loops[0]
        raise rec.error(f"this {loop.kind} is never closed: the kernel returned inside its body (a break out of a "
                        "dynamic_range body leaves the loop open, which nisa cannot record)", loop.location)
