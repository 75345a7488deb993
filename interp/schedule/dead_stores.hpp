// Dead-store elimination (issue 16): an instruction whose every write is
// overwritten before anything reads it has no observable effect, so a run
// may skip it. A chain such as `.rept 200` of range_select into one tile with
// reduce_cmd=reset_reduce and reduce_res keeps only its last instruction.
//
// Only instructions the spec marks `writes_whole_outputs` are ever skipped
// (every written operand written in full, no runtime fault, no engine state).
// A write kills bytes only where its view covers its bounding rectangle
// exactly; a read (of any instruction, by bounding rectangle, so
// conservatively) revives them. The end of the program reads everything:
// outputs, --dump-state and the accumulators are unchanged. Not used with
// --strict, whose unwritten-read and input-range checks must see every
// instruction, nor when NISA_PLAIN_PATHS is set (plain_paths.hpp).
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "distinct_instructions.hpp"
#include "program.hpp"
#include "spec.hpp"
#include "step.hpp"

namespace nisa {

// One flag per instruction: true where it can be skipped.
std::vector<bool> dead_instructions(const Spec& spec, const Program& program);

// The same for a program kept as distinct instructions: at(i) is the
// instruction at position i, which(i) names it (positions with the same
// which(i) hold the same instruction, whose accesses are worked out once).
std::vector<bool> dead_positions(const Spec& spec, const Program& program, std::size_t positions,
                                 const std::function<uint32_t(std::size_t)>& which,
                                 const std::function<const Instruction&(std::size_t)>& at);

// What the pass needs of each distinct instruction (its accesses), gathered
// by whoever walks the instructions first (predecode_shared's first_seen).
class StoreEffects {
 public:
  StoreEffects();
  ~StoreEffects();
  StoreEffects(const StoreEffects&) = delete;
  StoreEffects& operator=(const StoreEffects&) = delete;
  void add(const Spec& spec, const Program& program, uint32_t distinct, const Instruction& ins);

 private:
  friend std::size_t drop_dead_positions(const Spec&, const Program&, DistinctInstructions&, std::vector<uint32_t>&,
                                         StoreEffects*);
  struct List;
  std::unique_ptr<List> list_;
  std::vector<uint32_t> of_;  // per distinct instruction: its entry in list_, or UINT32_MAX
};

// For SharedSteps (order[i]: the step at position i of `instructions`):
// removes the dead positions from `order`; returns how many. `known`: the
// effects gathered already (those of any distinct instruction it lacks are
// worked out here).
std::size_t drop_dead_positions(const Spec& spec, const Program& program, DistinctInstructions& instructions,
                                std::vector<uint32_t>& order, StoreEffects* known = nullptr);

// The kernel of a skipped step: does nothing.
void skipped_step(const Step&, Machine&);

// Makes every dead instruction's step do nothing; returns how many.
std::size_t skip_dead_steps(const Spec& spec, const Program& program, std::vector<Step>& steps);

}  // namespace nisa
