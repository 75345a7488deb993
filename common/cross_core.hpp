// How the cores of a program meet (SEMANTICS S16): its cross-core
// instructions (spec cross_core: sendrecv pairs, core_barrier) matched in
// program order into meetings, before anything runs. Programs have no
// branches, so who meets whom is known from the instructions alone: a
// sendrecv whose peer never comes, a barrier a core never reaches, or two
// sides that disagree is an error of the program (at assembly, at .nbin
// load, at a kernel call), never a hang of the run. A run performs the
// meetings in the order found here.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "program.hpp"
#include "spec.hpp"

namespace nisa {

// One cross-core instruction at its place.
struct CrossCoreOp {
  int core = 0;
  std::size_t position = 0;
  Instruction instruction;  // its line included
  uint32_t text_line = 0;   // the .nasm line it was read from (the assembler's; .loc may differ), else 0
};

// Cores that meet: two ops of a sendrecv pair (in core order) or one op of
// each core a barrier names; indices into the op list.
struct Meeting {
  CrossCore kind = CrossCore::pair;
  std::vector<std::size_t> ops;
};

// Why the ops do not match: at `line` (an instruction of core `core`), a
// one-line message that names the other side's line too.
struct MeetingFailure {
  uint32_t line = 0;
  uint32_t text_line = 0;  // CrossCoreOp::text_line of that instruction
  std::string message;
};

struct CoreMeetings {
  std::vector<Meeting> meetings;  // in the order a run performs them
  std::optional<MeetingFailure> failure;
};

// The cores a core_barrier run by `core` waits with, sorted: those its cores
// operand names that the program has, `core` among them (NKI kernels pass
// cores=(0, 1) at LNC=1 too); only `core` itself, a barrier that waits for no
// one, when `cores` does not name it (nki-library passes cores=(0,) on both
// cores).
std::vector<int32_t> barrier_cores(const Program& program, const std::vector<int32_t>& named, int core);

// `ops` in position order (so each core's in program order); last_line[k]:
// the line of core k's last instruction (0: it has none), for messages.
CoreMeetings match_meetings(const Spec& spec, const Program& program, const std::vector<CrossCoreOp>& ops,
                            const std::vector<uint32_t>& last_line);

// Collects a program's cross-core ops and its cores' last lines as
// instructions arrive (the assembler, the .nbin decoder, the builder), and
// matches them at the end.
class CrossCoreCollector {
 public:
  void add(const Spec& spec, int core, std::size_t position, const Instruction& ins, uint32_t text_line = 0);
  CoreMeetings match(const Spec& spec, const Program& program) const;

 private:
  std::vector<CrossCoreOp> ops_;
  std::vector<uint32_t> last_line_;
};

}  // namespace nisa
