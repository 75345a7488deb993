#include "run_execution.hpp"

#include <functional>

#include "dead_stores.hpp"
#include "interpreter.hpp"
#include "partition_split.hpp"
#include "plain_paths.hpp"

namespace nisa {
namespace {

void mark(const RunSettings& settings, const char* phase) {
  if (settings.clock != nullptr) settings.clock->mark(phase);
}

// The steps' upper halves for a second thread (S14.2), when the run may use
// one (`fast`); instruction_of finds a step's instruction.
UpperHalves second_thread_halves(bool fast, const Spec& spec, std::vector<Step>& steps, TileTable& tiles,
                                 const std::function<const Instruction&(const Step&)>& instruction_of) {
  if (!fast || !second_thread_allowed()) return {};
  return split_partitions(spec, steps, tiles, instruction_of, split_min_elements());
}

}  // namespace

RunStats run_loaded_program(const Spec& spec, LoadedProgram& loaded, Machine& machine, const RunSettings& settings) {
  const Program& program = loaded.program;
  DistinctInstructions& distinct = loaded.distinct;
  RunStats stats;
  stats.instructions = distinct.size();
  // Outside --strict: dead stores skipped (S14.1), large partition-independent
  // steps cut for a second thread (S14.2).
  const bool fast = !settings.strict && !plain_paths();
  auto instruction_at = [&](const Step& s) -> const Instruction& {
    return distinct.at(static_cast<std::size_t>(s.instruction));
  };
  if (settings.strict) {
    // --strict reports each step's own line: it gets a step per position.
    std::unique_lock hold(loaded.lock);
    DecodedProgram decoded = predecode(spec, program, distinct, machine);
    hold.unlock();
    mark(settings, "predecode");
    execute_strict(program, decoded.steps, machine, settings.interruption);
  } else {
    std::unique_lock hold(loaded.lock);
    // The dead-store pass's accesses gathered as predecoding meets each
    // distinct instruction (one walk over them).
    StoreEffects effects;
    SharedSteps shared = predecode_shared(spec, program, distinct, machine, [&](uint32_t k, const Instruction& ins) {
      if (fast) effects.add(spec, program, k, ins);
    });
    if (fast) stats.dead = drop_dead_positions(spec, program, distinct, shared.order, &effects);
    const UpperHalves upper = second_thread_halves(fast, spec, shared.steps, *shared.tiles, instruction_at);
    hold.unlock();
    stats.cut = upper.steps.size();
    mark(settings, "predecode");
    execute_two_threads(shared.steps, shared.order, upper, machine, settings.interruption);
  }
  mark(settings, "execute");
  return stats;
}

void run_lockstep(const Spec& spec, LoadedProgram& loaded, Machine& machine, const OnState& on_state,
                  Interruption* interruption) {
  std::unique_lock hold(loaded.lock);
  const DecodedProgram decoded = predecode(spec, loaded.program, loaded.distinct, machine);
  hold.unlock();
  on_state(-1, 0);
  for (std::size_t i = 0; i < decoded.steps.size(); ++i) {
    between_steps(interruption);
    execute_step(decoded.steps[i], machine);
    on_state(static_cast<std::ptrdiff_t>(i), decoded.steps[i].line);
  }
}

}  // namespace nisa
