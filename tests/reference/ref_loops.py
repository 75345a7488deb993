"""The runtime loops of SEMANTICS S17.2 in the reference model: which
positions of a program run, in which order, and what the loops do to their
registers between them. Written from the rules, not from nisa's walk:

  - `fori_loop var, lower, upper, step`: lower and upper are read once, when
    the loop is reached; upper < lower is a fault (a negative trip count),
    upper == lower runs no iteration. The body runs once for each i in
    range(lower, upper, step) (NKI fori_loop), var taking i at the top of each
    iteration: what the body writes to var changes no iteration.
  - `while_loop cond`: the body runs while cond != 0, the register read before
    each iteration (the first included).
  - `end_loop` closes the innermost open loop.

Each loop instruction is a position of its own, reported like any other: the
loop's first instruction once, when it is reached, its end_loop after every
iteration (a loop that runs no iteration reports no end_loop). The loop
instructions themselves change no state; a fori_loop's var is set at the top
of each iteration, after the position before it was reported.

The walk is a generator of positions: its consumer runs the instruction at
each position it is given (instructions/<name>.py: the loop instructions'
semantics do nothing), then asks for the next one, which the walk decides
from the registers as the instructions before left them.
"""
from ref_machine import Fault

STARTS = ("fori_loop", "while_loop")

# The model's own guard against a program that never ends: positions run inside
# loops before it faults. nisa's step limit counts otherwise and is not compared
# (the random programs' loops are short).
STEP_LIMIT = 10 ** 9


def loop_ends(instrs):
    """{position of a fori_loop/while_loop: position of its end_loop}; loops nest."""
    ends, open_loops = {}, []
    for i, ins in enumerate(instrs):
        if ins.mnemonic in STARTS:
            open_loops.append(i)
        elif ins.mnemonic == "end_loop":
            if not open_loops:
                raise ValueError(f"line {ins.line}: end_loop without an open loop")
            ends[open_loops.pop()] = i
    if open_loops:
        raise ValueError(f"line {instrs[open_loops[-1]].line}: loop not closed")
    return ends


class Walk:
    """The positions of `instrs` in the order a machine `m` runs them (module docstring).
    `entered` is set, as a position is handed out, to the position of the loop
    instruction whose branch led there (a loop's first iteration, or its end_loop
    going back), else None: the lockstep counts such branches as nonzero results."""

    def __init__(self, instrs, m, step_limit=STEP_LIMIT):
        self.instrs, self.m = instrs, m
        self.ends = loop_ends(instrs)
        self.step_limit, self.steps = step_limit, 0
        self.entered = None
        self._branch = None
        self._positions = self._block(0, len(instrs), 0)

    def __iter__(self):
        return self

    def __next__(self):
        position = next(self._positions)
        self.entered, self._branch = self._branch, None
        return position

    def _fault(self, position, message):
        ins = self.instrs[position]
        raise Fault(f"line {ins.line}: {ins.mnemonic}: {message}")

    def _read(self, position, operand):
        try:
            return self.m.register_or_int(operand)
        except Fault as e:
            self._fault(position, str(e))

    def _count(self, position, depth):
        if depth:
            self.steps += 1
            if self.steps > self.step_limit:
                self._fault(position, f"the loops have run more than {self.step_limit} instructions (S17.2)")

    def _block(self, first, stop, depth):
        """Positions [first, stop) at loop nesting `depth`, loops run as they come."""
        i = first
        while i < stop:
            ins = self.instrs[i]
            self._count(i, depth)
            yield i
            if ins.mnemonic not in STARTS:
                i += 1
                continue
            end = self.ends[i]
            if ins.mnemonic == "fori_loop":
                yield from self._fori(i, end, ins.ops, depth + 1)
            else:
                yield from self._while(i, end, ins.ops["cond"], depth + 1)
            i = end + 1

    def _fori(self, loop, end, o, depth):
        lower, upper = self._read(loop, o["lower"]), self._read(loop, o["upper"])
        if upper < lower:
            self._fault(loop, f"upper {upper} is below lower {lower}: a negative trip count (S17.2)")
        came_from = loop
        for value in range(lower, upper, o["step"]):
            self.m.write_register(o["var"].name, value)  # the iteration value, at the top of the iteration
            self._branch = came_from
            yield from self._block(loop + 1, end, depth)
            self._count(end, depth)
            yield end
            came_from = end

    def _while(self, loop, end, cond, depth):
        came_from = loop
        while self._read(came_from, cond) != 0:
            self._branch = came_from
            yield from self._block(loop + 1, end, depth)
            self._count(end, depth)
            yield end
            came_from = end
