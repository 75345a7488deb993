// The estimated timeline of a checked Program (SEMANTICS S6), computed
// statically (nothing is executed) but for runtime loops, which it lays out
// as the run ran them (S17.4: iteration counts the run recorded). The Vector, Scalar and GpSimd engines and
// one DMA queue run concurrently; each runs its own instructions in program
// order. An instruction starts when its engine is free and every earlier
// instruction it depends on has finished, plus the spec's cross_engine_wait
// when that instruction ran on another engine. Dependencies: RAW, WAR and WAW
// on overlapping memory (SBUF/PSUM: partition range x byte range within the
// partition, physical addresses, so aliased tensors count; HBM: rows x byte
// range within a row) and use of the same accumulator lanes (S3).
//
// Times are in ns: each instruction's cycles are converted with its own
// engine's clock (archs clock_ghz), and the timeline is laid out in ns.
//
// Several cores (SEMANTICS S16.4): each core has its own five engines and
// runs its own instructions (core_positions) as above; dependencies are
// found within a core only (its SBUF, PSUM and accumulators are its own,
// and a race-free program orders its cores' HBM accesses by meetings). The
// cores wait for each other only at their meetings (cross_core.hpp): the
// meeting's instructions, one per core, start when the last of them is ready
// (its engine free, its dependencies ended) and end together, after the
// longest of their costs. For the timeline a core_barrier (spec cross_core
// "barrier") writes its operands: what follows it on that core and touches
// `data` waits for it, which is how the cores' writes before the barrier
// reach the reads after it.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "program.hpp"
#include "spec.hpp"

namespace nisa {

// Bits of Dependency::kinds.
inline constexpr uint8_t dependency_raw = 1;          // it reads what the earlier one wrote
inline constexpr uint8_t dependency_war = 2;          // it writes what the earlier one read
inline constexpr uint8_t dependency_waw = 4;          // both write
inline constexpr uint8_t dependency_accumulator = 8;  // same accumulator lanes (S3)

struct Dependency {
  uint32_t instruction = 0;  // index of the earlier (timed) instruction
  uint8_t kinds = 0;         // dependency_* bits
};

// One executed instruction: a program instruction, or one iteration's run of
// an instruction of a loop body (S17.4).
struct TimedInstruction {
  uint32_t position = 0;  // its program instruction
  Engine engine{};
  int core = 0;         // the core that runs it (S16)
  double cycles = 0;    // engine cycles (S6)
  double start_ns = 0;
  double end_ns = 0;
  // Direct dependencies, ascending. Accesses already covered by a later write
  // (or, for reads, by a later read on the same engine) are not repeated: the
  // later instruction finishes no earlier, so the timing is the same.
  std::vector<Dependency> dependencies;
};

// Cores meeting at one sendrecv pair or core_barrier (S16.4).
struct TimedMeeting {
  std::vector<uint32_t> instructions;  // one per core, ascending core
  std::vector<double> ready_ns;        // when each could have started; all start at the latest
};

struct Timeline {
  // Without runtime loops, one per program instruction in program order
  // (instructions[i].position == i); with them, every instruction each core
  // ran, in the order they were laid out (each core in the order it ran them,
  // the cores interleaved at their meetings).
  std::vector<TimedInstruction> instructions;
  std::size_t program_instructions = 0;
  bool loops = false;  // the program has runtime loops (S17)
  double span_ns = 0;                          // end of the last instruction (of the slowest core)
  double clock_ghz[kEngineCount] = {};         // of the program's arch
  int cores = 1;
  std::vector<TimedMeeting> meetings;  // in the order they happen (instructions: timed indices)
};

// Each core's loop entries' iteration counts, in the order the run entered
// them (RunSettings::loop_trips).
using LoopTrips = std::vector<std::vector<uint64_t>>;

// S17.4: with `trips` (the run's), each loop body is laid out once per
// iteration it ran, the loop's entry (fori_loop, while_loop) once per entry
// and end_loop once per iteration; without, each loop body once.
Timeline build_timeline(const Spec& spec, const Program& program, const LoopTrips* trips = nullptr);

}  // namespace nisa
