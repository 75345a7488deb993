"""A launch of several NeuronCores (NKI 0.6 `kernel[2]`, LNC=2; LANGUAGE.md
2.7 and 4): the kernel's Python runs once per core, each run recording into
its own _record.Recording (nl.program_id is its core), and the recordings
make one program with a `.core` section per core.

What the cores share and what each has of its own is NKI 0.6's
(nki.language buffers): the kernel's parameters and its nl.shared_hbm
tensors are one tensor for all cores (declared before the first `.core`:
shared HBM), a shared_hbm tensor core k makes being core 0's made at the
same place in the order (Recording._shared_of_core0); nl.hbm /
nl.private_hbm, SBUF and PSUM tensors are each core's own (declared in its
section).
"""
from . import _record


class CoreRecordings:
    """The recordings of one call at a launch of several cores, core 0's
    first; what nisa.nki does with a single Recording (place_on_chip,
    name_tensors, text, handoff) it does with this."""

    def __init__(self, recordings):
        self.recordings = recordings
        first = recordings[0]
        self.kernel_name, self.kernel_file, self.arch = first.kernel_name, first.kernel_file, first.arch
        self.nki = first.nki
        self.cores = len(recordings)
        self._declared = None

    def shared(self):
        """The HBM tensors every core sees (the parameters, the shared_hbm
        tensors and nl.shared_constant's), in the order core 0 made them."""
        return [s for s in self.recordings[0].storages if s.region == "shared_hbm"]

    def place_on_chip(self):
        for rec in self.recordings:  # each core has its own SBUF and PSUM
            rec.place_on_chip()

    def name_tensors(self, params, outputs):
        """Parameters keep their names and outputs take theirs as at one
        core; the other shared tensors follow; then each core names its own
        tensors, which may take the names another core's have (each core's
        section has its own names, LANGUAGE.md 2.7) but not a shared one's."""
        names = _record._Names()
        claim = names.claim
        for storage, param in params:
            storage.name = claim(param)
        for i, storage in enumerate(outputs):
            if storage.name is None:
                storage.name = claim(storage.user_name or f"out{i}")
        for storage in self.shared():
            if storage.name is None:
                storage.name = claim(storage.user_name or storage.hint)
        for rec in self.recordings:
            rec.name_the_rest(names.copy().claim)

    def declarations(self):
        """(the shared declarations, [each core's declarations]), as
        Recording.declarations chooses them, with every storage's index in
        the program: the shared tensors first, then core 0's, core 1's, ..."""
        if self._declared is not None:
            return self._declared
        shared = [s for s in self.shared() if s.first_use is not None or s.role != "scratch"]
        sections = []
        for rec in self.recordings:
            own = [s for s in rec.storages if s.region != "shared_hbm" and s.buffer == "hbm" and s.first_use is not None]
            own += [s for s in rec.storages if s.on_chip and s.first_use is not None and s.declared]
            sections.append(own)
        index = 0
        for declared in [shared] + sections:
            for s in declared:
                s.index = index
                index += 1
        for rec in self.recordings:
            for s in rec.storages:
                if s.same_as is not None:
                    s.index = s.same_as.index
        # A register's index is the program's (core 0's registers, then core
        # 1's, ...), as a view's index_register names it.
        index = 0
        for rec in self.recordings:
            for r in rec.registers:
                r.index = index
                index += 1
        self._declared = shared, sections
        return self._declared

    def header(self):
        return self.recordings[0].header() + [f".cores {self.cores}"]

    def file_name(self):
        return self.recordings[0].file_name()

    def text(self, tensor_class, render_tensor):
        """The .nasm program (LANGUAGE.md 2.7) and, per text line, the
        Location it came from, as Recording.text. A core's declarations
        carry their kernel lines (.loc), as its instructions do."""
        lines, origins = [], []

        def add(line, origin=None):
            lines.append(line)
            origins.append(origin)

        for line in self.header():
            add(line)
        shared, sections = self.declarations()
        for s in shared:
            add(_record.declaration_text(s), s.created_at)
        for core, (rec, own) in enumerate(zip(self.recordings, sections)):
            add(f".core {core}")
            implied = None  # each section starts with a .loc
            for s in own:
                line = s.created_at.line
                if line != implied:
                    add(f".loc {line}")
                add(_record.declaration_text(s), s.created_at)
                implied = line + 1
            for r in rec.registers:  # a core's registers are its own (SEMANTICS S17)
                line = r.created_at.line
                if line != implied:
                    add(f".loc {line}")
                add(f".reg {r.name}", r.created_at)
                implied = line + 1
            rec.instruction_text(lines, origins, tensor_class, render_tensor, implied)
        return "\n".join(lines) + "\n", origins

    def handoff(self):
        """The arch, the file and the shared declarations, as
        Recording.handoff; sections() gives the rest."""
        shared, _ = self.declarations()
        first_line = len(self.header()) + 1
        return self.arch, self.file_name(), [_record.handoff_declaration(s, first_line + k)
                                             for k, s in enumerate(shared)]

    def sections(self):
        """Per core, (its declarations as handoff gives them, its
        instructions, its registers as (name, line)): the line of a
        declaration or register is its kernel line, as the text's .loc
        gives it."""
        _, own = self.declarations()
        return [([_record.handoff_declaration(s, s.created_at.line) for s in declared], rec.instructions,
                 [(r.name, r.created_at.line) for r in rec.registers])
                for rec, declared in zip(self.recordings, own)]
