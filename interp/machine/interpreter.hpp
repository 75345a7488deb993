// Runs a checked Program: pre-decodes it once into Steps (resolved pointers,
// typed kernels), then executes them in order. A program that passed
// check_instruction/check_tensor (the assembler and the .nbin loader both run
// them) is in bounds, so the kernels do no checks.
#pragma once
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "distinct_instructions.hpp"
#include "interruption.hpp"
#include "machine.hpp"
#include "step.hpp"
#include "tile_table.hpp"

namespace nisa {

// A program ready to run: one Step per instruction, and the tiles they point to.
struct DecodedProgram {
  std::vector<Step> steps;
  std::unique_ptr<TileTable> tiles;
};

// Steps point into `machine`: keep it alive and in place while they run.
DecodedProgram predecode(const Spec& spec, const Program& program, Machine& machine);
// The same for a program whose instructions are kept as distinct ones
// (`program.instructions` is not read; Step::instruction is the position).
DecodedProgram predecode(const Spec& spec, const Program& program, DistinctInstructions& instructions, Machine& machine);
// Only positions [range.begin, range.end) (one core's of a program for
// several, LANGUAGE.md 2.7): steps[i - range.begin] is position i's.
DecodedProgram predecode(const Spec& spec, const Program& program, DistinctInstructions& instructions, Machine& machine,
                         PositionRange range);

// Steps shared between the positions that decode to the same Step byte for
// byte (`nisa run` of a long .rept without --strict: a handful of steps of
// 264 bytes rather than hundreds of thousands, memory the kernel would zero).
// Only --strict reads a step's line, and a step holding anything particular
// to its position (a buffer of its own, a resolved nc_matmul accumulation
// flag, an indirect access's line) differs in its bytes, so is not shared.
struct SharedSteps {
  std::vector<Step> steps;      // distinct steps (Step::instruction and line: their first position's)
  std::vector<uint32_t> order;  // per position: index into steps
  std::unique_ptr<TileTable> tiles;
};
// `first_seen` (if given) is called with each distinct instruction at its
// first position, while the walk has it at hand (the dead-store pass's
// accesses are gathered so, rather than in a second walk over cold memory).
// `range` (if given): only those positions, order[i - range->begin] being position i's.
SharedSteps predecode_shared(const Spec& spec, const Program& program, DistinctInstructions& instructions, Machine& machine,
                             const std::function<void(uint32_t distinct, const Instruction&)>& first_seen = {},
                             std::optional<PositionRange> range = std::nullopt);

void execute_step(const Step& s, Machine& machine);
void execute(const std::vector<Step>& steps, Machine& machine);
void execute(const SharedSteps& shared, Machine& machine);

// --strict (S1.1, S3, S5): the same execution with hazard tracking; throws
// RuntimeFault("FILE:LINE: error: ...") at the first hazard. Asks
// `interruption` (if any) between steps.
void execute_strict(const Program& program, const std::vector<Step>& steps, Machine& machine,
                    Interruption* interruption = nullptr);

// The same, a step at a time, for a run that interleaves cores (core_run.hpp):
// one per core, its hazard tracking kept between calls.
class StrictRun {
 public:
  StrictRun(const Program& program, Machine& machine);
  StrictRun(StrictRun&&) noexcept;
  ~StrictRun();
  void run(const Step& s);

 private:
  struct Tracker;
  std::unique_ptr<Tracker> tracker_;
};

}  // namespace nisa
