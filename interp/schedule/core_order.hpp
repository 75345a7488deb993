// What orders two cores' instructions (SEMANTICS S16.5), for --strict's HBM
// race check (hbm_races.hpp). A core's own instructions are ordered by
// program order; instructions of two cores only by their meetings (a
// sendrecv pair, a core_barrier): everything a core did before a meeting
// happens before everything the other participants do after it, and what
// they learnt there they pass on at their next meetings (happens-before is
// transitive). So each core keeps a vector clock, counted in positions
// rather than epochs: for every core d, the first position of d it does not
// yet know to be done. A meeting joins its participants' clocks. Positions
// are the program's (a core's are [core_starts[k], core_starts[k+1])), so a
// clock entry says both which meeting was learnt and which instructions it
// covers, with no table from epochs to positions.
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace nisa {

struct CoreOrder {
  int cores = 0;
  // known[c * cores + d]: core d's positions below this happen before core
  // c's next instruction (d != c; 0: none yet). known[c * cores + c] is c's
  // own progress as others learn it: one past its last meeting.
  std::vector<std::size_t> known;
};

// One participant of a meeting: its core and its meeting instruction's position.
struct MeetingSide {
  int core = 0;
  std::size_t position = 0;
};

// `cores` cores that have not met yet.
CoreOrder start_core_order(int cores);

// The participants of one meeting have all arrived: each is done with
// everything up to and through its meeting instruction, and every
// participant learns what any of them knew (the join of their clocks).
void meet(CoreOrder& order, std::span<const MeetingSide> sides);

// The first position of core `earlier_core` not known to happen before core
// `later`'s next instruction (its later positions are not either); SIZE_MAX
// for `later` itself, whose every earlier instruction comes first.
std::size_t first_unordered(const CoreOrder& order, int earlier_core, int later);

// Whether core `earlier_core`'s instruction at `position` happens before
// core `later`'s next instruction: the same core (program order), or core
// `later` learnt of it through meetings.
bool happens_before(const CoreOrder& order, int earlier_core, std::size_t position, int later);

}  // namespace nisa
