// Running a loaded program on a machine whose inputs are bound: predecode,
// then execute (SEMANTICS S14: outside --strict, dead stores skipped and
// large partition-independent steps cut for a second thread; neither changes
// a byte of output).
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "interruption.hpp"
#include "loaded_program.hpp"
#include "machine.hpp"
#include "phase_clock.hpp"
#include "spec.hpp"

namespace nisa {

struct RunSettings {
  bool strict = false;                   // S1.1, S3, S5 hazards become RuntimeFaults
  Interruption* interruption = nullptr;  // asked between steps (Python's Ctrl-C)
  PhaseClock* clock = nullptr;           // marks "predecode" and "execute"
  // S17.2: the instructions loop iterations may run before the run stops
  // (--max-steps, max_steps=); 0 for Machine's default.
  uint64_t max_steps = 0;
  // When profiling (S6): filled per core with each loop entry's iteration
  // count, in entry order (build_timeline lays the loops out from it).
  std::vector<std::vector<uint64_t>>* loop_trips = nullptr;
};

struct RunStats {
  std::size_t instructions = 0;
  std::size_t dead = 0;  // skipped as dead stores (S14.1)
  std::size_t cut = 0;   // steps whose upper partitions ran on a second thread (S14.2)
};

// Steps point into `machine`; it holds the results afterwards. Takes
// `program.lock` while predecoding (the steps are the run's own).
RunStats run_loaded_program(const Spec& spec, LoadedProgram& program, Machine& machine, const RunSettings& settings);

// Lockstep (tests/reference/lockstep.py through _nisa.lockstep): every
// position gets a step of its own (no shared steps), nothing is skipped as a
// dead store and no second thread runs, so after each step the machine holds
// exactly the state the program leaves after that instruction. `on_state` is
// called once before the first step (position -1, line 0: the inputs bound)
// and then after each step with its position and source line. It may throw
// to stop the run. Outside --strict (no hazard checks). Asks `interruption`
// (if any) between steps.
using OnState = std::function<void(std::ptrdiff_t position, uint32_t line)>;
void run_lockstep(const Spec& spec, LoadedProgram& program, Machine& machine, const OnState& on_state,
                  Interruption* interruption = nullptr);

}  // namespace nisa
