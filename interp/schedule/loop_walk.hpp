// SEMANTICS S17.2: the walk over a program's positions that runs its runtime
// loops. Every execute loop goes through it (one core, several cores,
// --strict, the lockstep), so loops mean the same everywhere: `run(i)` is
// called for each position in the order the machine runs them, a loop's own
// positions included (their kernels do nothing; the walk decides what comes
// next). Loops nest properly and close within a core (checked at assembly
// and load: sequencer_check.hpp), so a walk of positions [begin, end) that
// holds whole loops keeps no state between calls. A profiled run (S17.4)
// gives the machine a log (Machine::loop_trips) where the walk writes each
// loop entry's iteration count, in entry order: the timeline replays it.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "error.hpp"
#include "loop.hpp"

namespace nisa {

namespace loop_walk_detail {

struct Frame {
  std::size_t body = 0;  // the first position of the body
  int64_t next = 0;      // fori_loop: the next iteration value
  int64_t upper = 0;
  int64_t step = 1;
  int32_t reg = -1;      // fori_loop: var; while_loop: cond
  bool is_while = false;
  const LoopParams* start = nullptr;  // the loop's own step: faults name its line
  std::size_t trips_slot = 0;         // its entry in Machine::loop_trips (when profiled)
};

[[noreturn]] void fault(const LoopParams& p, const std::string& message);

// Counts a finished iteration of `length` positions against the run's limit.
inline void count_iteration(Machine& m, std::size_t length, const LoopParams& p) {
  m.loop_steps += length;
  if (m.loop_steps > m.loop_step_limit)
    fault(p, "the run's loops have run more than " + std::to_string(m.loop_step_limit) +
                 " instructions (S17.2: a loop that never ends? raise the limit with --max-steps / max_steps=)");
}

// A loop entered (profiled runs, S6): its slot in the entry-ordered log,
// which the loop's iterations then count up.
inline std::size_t log_entry(Machine& m) {
  if (m.loop_trips == nullptr) return 0;
  m.loop_trips->push_back(0);
  return m.loop_trips->size() - 1;
}

}  // namespace loop_walk_detail

// StepAt: position -> const Step&; Run: position -> void (runs that step).
template <class StepAt, class Run>
void walk_positions(std::size_t begin, std::size_t end, Machine& m, StepAt&& step_at, Run&& run) {
  using loop_walk_detail::Frame;
  std::vector<Frame> frames;
  // Past the end_loop matching the loop that starts at `at`.
  auto skip_loop = [&](std::size_t at) {
    int depth = 0;
    for (std::size_t i = at;; ++i) {
      const Step& s = step_at(i);
      if (s.run == fori_loop_step || s.run == while_loop_step) ++depth;
      else if (s.run == end_loop_step && --depth == 0) return i + 1;
    }
  };
  for (std::size_t i = begin; i < end;) {
    const Step& s = step_at(i);
    run(i);
    if (!is_loop_step(s)) {
      ++i;
      continue;
    }
    const LoopParams& p = s.params<LoopParams>();
    if (s.run == fori_loop_step) {
      const int64_t lower = p.lower.get(m, p.site), upper = p.upper.get(m, p.site);
      if (upper < lower)
        loop_walk_detail::fault(p, "upper " + std::to_string(upper) + " is below lower " + std::to_string(lower) +
                                       ": a negative trip count (S17.2)");
      if (upper == lower) {
        loop_walk_detail::log_entry(m);
        i = skip_loop(i);
        continue;
      }
      write_register(m, p.reg, static_cast<int32_t>(lower));
      frames.push_back(Frame{i + 1, lower + p.step, upper, p.step, p.reg, false, &p, loop_walk_detail::log_entry(m)});
      ++i;
    } else if (s.run == while_loop_step) {
      if (read_register(m, p.reg, p.site) == 0) {
        loop_walk_detail::log_entry(m);
        i = skip_loop(i);
        continue;
      }
      frames.push_back(Frame{i + 1, 0, 0, 1, p.reg, true, &p, loop_walk_detail::log_entry(m)});
      ++i;
    } else {  // end_loop
      Frame& f = frames.back();
      loop_walk_detail::count_iteration(m, i + 1 - f.body, *f.start);
      if (m.loop_trips != nullptr) ++(*m.loop_trips)[f.trips_slot];
      const bool again = f.is_while ? read_register(m, f.reg, p.site) != 0 : f.next < f.upper;
      if (!again) {
        frames.pop_back();
        ++i;
        continue;
      }
      if (!f.is_while) {
        write_register(m, f.reg, static_cast<int32_t>(f.next));  // NKI fori_loop: the body's var is the iteration value
        f.next += f.step;
      }
      i = f.body;
    }
  }
}

}  // namespace nisa
