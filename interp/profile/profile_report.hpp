// What `nisa run --profile` prints and `nisa run --trace FILE.json` writes
// (LANGUAGE.md section 1, SEMANTICS S6), from a Timeline.
#pragma once
#include <string>

#include "program.hpp"
#include "spec.hpp"
#include "timeline.hpp"

namespace nisa {

// Aligned text: per engine instruction count, busy cycles, busy time and
// utilisation (busy / span); the span; then the `top` costliest instructions
// (by estimated time) with source file:line and mnemonic.
std::string profile_table(const Spec& spec, const Program& program, const Timeline& timeline, std::size_t top = 10);

// Chrome trace event format (opens in Perfetto and chrome://tracing): one
// thread per engine, one complete event ("ph": "X") per instruction with ts and
// dur in microseconds (rounded to the picosecond) and args {index, source,
// cycles, deps}; flow arrows for dependencies across engines.
std::string trace_json(const Spec& spec, const Program& program, const Timeline& timeline);

}  // namespace nisa
