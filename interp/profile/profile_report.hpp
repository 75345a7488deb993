// What `nisa run --profile` prints and `nisa run --trace FILE.json` writes
// (LANGUAGE.md section 1, SEMANTICS S6), from a Timeline.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "program.hpp"
#include "spec.hpp"
#include "timeline.hpp"

namespace nisa {

// What one engine did: instructions, busy cycles and busy time (end - start).
struct EngineUse {
  std::size_t instructions = 0;
  double cycles = 0;
  double busy_ns = 0;
};

// What one core did (S16.4; a one-core program has one).
struct CoreUse {
  EngineUse engines[kEngineCount];
  std::size_t instructions = 0;
  double end_ns = 0;      // the end of its last instruction
  double waiting_ns = 0;  // at its meetings, for the other cores
};

std::vector<CoreUse> core_use(const Timeline& timeline);

// Aligned text: per engine instruction count, busy cycles, busy time and
// utilisation (busy / span); the span; then the `top` costliest instructions
// (by estimated time) with source file:line and mnemonic; with runtime loops
// (S17.4) the header counts the instructions run, and the top list ranks
// program instructions by all their runs and shows their runs. Several cores: the
// engine rows per core, then per core its instructions, end and time spent
// waiting at meetings, and a core column in the top list.
std::string profile_table(const Spec& spec, const Program& program, const Timeline& timeline, std::size_t top = 10);

// Chrome trace event format (opens in Perfetto and chrome://tracing): one
// thread per engine, one complete event ("ph": "X") per instruction with ts and
// dur in microseconds (rounded to the picosecond) and args {index, source,
// cycles, deps}; flow arrows for dependencies across engines. With runtime
// loops, one event per instruction run: args also hold `run` (its index in
// the timeline), and each dep its `run` beside its `index`. Several cores:
// one process per core (pid core + 1, named "core K": Perfetto takes pid 0
// for the kernel's idle task) with its engines as threads (tid 5 * core +
// engine, unique across processes); a meeting's instructions also carry
// args {meets, waited_us}, and an arrow runs from the last core to arrive to
// each core that waited for it.
std::string trace_json(const Spec& spec, const Program& program, const Timeline& timeline);

}  // namespace nisa
