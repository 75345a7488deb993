// Partition-parallel execution on a second thread (issue 16). An instruction
// whose partitions are independent (the spec's "partitions_independent":
// partition p of what it writes depends only on partition p of what it reads
// and on accumulator lane p) is cut in two when it is large: the main thread
// runs the lower partitions, a second thread the upper ones, and the next
// instruction starts when both are done. Each partition is computed by the
// same code on the same values as in a one-thread run, so results are the
// same bits (tests/identity compares them with NISA_PLAIN_PATHS=1).
//
// Used only outside --strict, with at least two CPUs, and not with
// NISA_PLAIN_PATHS or NISA_THREADS=1; by default only while the machine has a
// CPU to spare (1-minute load average + 1 <= CPUs), always with NISA_THREADS=2. Steps skipped as dead stores
// (dead_stores.hpp) are never cut.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "interruption.hpp"
#include "program.hpp"
#include "spec.hpp"
#include "step.hpp"
#include "tile_table.hpp"

namespace nisa {

// An instruction is cut when partitions x free elements reach this. Below it
// handing half to the other thread costs more than it saves (bench/README.md,
// "A second thread").
inline constexpr int64_t kSplitMinElements = 128 * 1024;

struct UpperHalves {
  std::vector<Step> steps;  // the upper partitions of each cut instruction
  std::vector<int32_t> of;  // per step: index into `steps`, or -1
  bool empty() const { return steps.empty(); }
};

// Whether this run may use a second thread (see above).
bool second_thread_allowed();

// kSplitMinElements, or NISA_SPLIT_MIN_ELEMENTS (tests cut small steps too).
int64_t split_min_elements();

// Cuts every large partition-independent step in two: `steps[i]` keeps the
// lower partitions, the returned upper half gets the rest (its tiles, added
// to `tiles`, start that many partitions further). instruction_of(step) is
// the instruction a step was decoded from.
UpperHalves split_partitions(const Spec& spec, std::vector<Step>& steps, TileTable& tiles,
                             const std::function<const Instruction&(const Step&)>& instruction_of,
                             int64_t min_elements);

// execute(), with each cut step's upper half on a second thread: the steps
// in order, or steps[order[0]], steps[order[1]], ... (SharedSteps). Asks
// `interruption` (if any) between steps, never while a half is out.
void execute_two_threads(const std::vector<Step>& steps, const UpperHalves& upper, Machine& machine,
                         Interruption* interruption = nullptr);
void execute_two_threads(const std::vector<Step>& steps, std::span<const uint32_t> order, const UpperHalves& upper,
                         Machine& machine, Interruption* interruption = nullptr);

// The same over many calls with one second thread, started at the first cut
// step and kept until this ends: a core of a program for several runs its
// steps a stretch at a time, between meetings (core_run.hpp), and a thread
// started per stretch would cost more than the stretch.
class SecondThread;
class TwoThreads {
 public:
  explicit TwoThreads(Machine& machine);
  TwoThreads(const TwoThreads&) = delete;
  TwoThreads& operator=(const TwoThreads&) = delete;
  ~TwoThreads();
  void execute(const std::vector<Step>& steps, std::span<const uint32_t> order, const UpperHalves& upper,
               Interruption* interruption = nullptr);

 private:
  Machine& machine_;
  std::unique_ptr<SecondThread> second_;
};

}  // namespace nisa
