#include "run_execution.hpp"

#include <functional>
#include <optional>

#include "core_run.hpp"
#include "dead_stores.hpp"
#include "error.hpp"
#include "hbm_races.hpp"
#include "interpreter.hpp"
#include "loop_walk.hpp"
#include "partition_split.hpp"
#include "plain_paths.hpp"

namespace nisa {
namespace {

void mark(const RunSettings& settings, const char* phase) {
  if (settings.clock != nullptr) settings.clock->mark(phase);
}

// Each core's loop settings: its step limit and, when profiled, its log of
// loop entries (S17.2, S6).
void set_loop_settings(Machine& machine, int cores, const RunSettings& settings) {
  if (settings.loop_trips != nullptr) settings.loop_trips->assign(static_cast<std::size_t>(cores), {});
  for (int c = 0; c < cores; ++c) {
    Machine& m = core_machine(machine, c);
    if (settings.max_steps > 0) m.loop_step_limit = settings.max_steps;
    if (settings.loop_trips != nullptr) m.loop_trips = &(*settings.loop_trips)[static_cast<std::size_t>(c)];
  }
}

// The machine outlives the run; the log does not have to.
struct ForgetLoopTrips {
  Machine& machine;
  int cores;
  ~ForgetLoopTrips() {
    for (int c = 0; c < cores; ++c) core_machine(machine, c).loop_trips = nullptr;
  }
};

// The steps' upper halves for a second thread (S14.2), when the run may use
// one (`fast`); instruction_of finds a step's instruction.
UpperHalves second_thread_halves(bool fast, const Spec& spec, std::vector<Step>& steps, TileTable& tiles,
                                 const std::function<const Instruction&(const Step&)>& instruction_of) {
  if (!fast || !second_thread_allowed()) return {};
  return split_partitions(spec, steps, tiles, instruction_of, split_min_elements());
}

// Whether the program has a runtime loop (S17.2): the dead-store pass reasons
// about one pass over the positions, which a loop's next iteration breaks (a
// store the next iteration reads is not dead), so it is off for such programs.
bool has_loops(const Spec& spec, const DistinctInstructions& distinct) {
  for (std::size_t k = 0; k < distinct.distinct_count(); ++k)
    if (starts_loop(spec.instructions[static_cast<std::size_t>(distinct.distinct(static_cast<uint32_t>(k)).spec_index)].sequencer)) return true;
  return false;
}

// Each core's cross-core instructions, in position order (CrossCoreCollector).
std::vector<CrossCoreOp> cross_core_ops(const Spec& spec, const Program& program, DistinctInstructions& distinct) {
  std::vector<CrossCoreOp> ops;
  for (int core = 0; core < core_count(program); ++core) {
    const PositionRange range = core_positions(program, core, distinct.size());
    for (std::size_t i = range.begin; i < range.end; ++i) {
      const Instruction& d = distinct.distinct(distinct.which(i));
      if (spec.instructions[static_cast<std::size_t>(d.spec_index)].cross_core != CrossCore::none)
        ops.push_back(CrossCoreOp{core, i, distinct.at(i), 0});
    }
  }
  return ops;
}

// SEMANTICS S16: a program for several cores, each core on its own machine
// (core_run.hpp). No dead stores (S14.1 reasons about one core's order; a
// store another core reads is not dead), the partition split as for one core.
RunStats run_cores(const Spec& spec, LoadedProgram& loaded, Machine& machine, const RunSettings& settings) {
  const Program& program = loaded.program;
  DistinctInstructions& distinct = loaded.distinct;
  RunStats stats;
  stats.instructions = distinct.size();
  add_other_cores(machine, spec, program);
  const int cores = core_count(program);
  set_loop_settings(machine, cores, settings);
  const ForgetLoopTrips forget{machine, cores};
  std::unique_lock hold(loaded.lock);
  const std::vector<CrossCoreOp> ops = cross_core_ops(spec, program, distinct);
  std::vector<uint32_t> last_line(static_cast<std::size_t>(cores), 0);
  const CoreMeetings meetings = match_meetings(spec, program, ops, last_line);
  if (meetings.failure) throw InputError(program.file + ":" + std::to_string(meetings.failure->line) + ": error: " + meetings.failure->message);
  std::vector<CoreSteps> sides(static_cast<std::size_t>(cores));
  // Per core, what its run keeps: strict's steps and tracker, or the shared steps and their upper halves.
  std::vector<DecodedProgram> decoded(static_cast<std::size_t>(cores));
  std::vector<StrictRun> strict;
  std::vector<SharedSteps> shared(static_cast<std::size_t>(cores));
  std::vector<UpperHalves> upper(static_cast<std::size_t>(cores));
  std::vector<std::unique_ptr<TwoThreads>> threads;  // per core: one second thread for all its stretches
  const bool fast = !settings.strict && !plain_paths();
  // --strict: shared HBM's races between cores (S16.5), checked before each step runs.
  std::optional<HbmRaces> races;
  if (settings.strict)
    races.emplace(start_hbm_races(program, machine, distinct.size(), [&](int core, std::size_t position) {
      const auto k = static_cast<std::size_t>(core);
      const Instruction& ins = distinct.distinct(distinct.which(position));
      return InstructionSite{spec.instructions[static_cast<std::size_t>(ins.spec_index)].name,
                             decoded[k].steps[position - sides[k].positions.begin].line};
    }));
  for (int c = 0; c < cores; ++c) {
    const auto k = static_cast<std::size_t>(c);
    Machine& m = core_machine(machine, c);
    CoreSteps& side = sides[k];
    side.positions = core_positions(program, c, distinct.size());
    const std::size_t first = side.positions.begin;
    if (settings.strict) {
      decoded[k] = predecode(spec, program, distinct, m, side.positions);
      strict.emplace_back(program, m);
      side.run = [&, k, first, c](std::size_t from, std::size_t to) {
        walk_positions(from, to, core_machine(machine, c), [&](std::size_t i) -> const Step& { return decoded[k].steps[i - first]; },
                       [&](std::size_t i) {
                         const Step& s = decoded[k].steps[i - first];
                         check_hbm_step(*races, c, s);
                         strict[k].run(s);
                         between_steps(settings.interruption);
                       });
      };
      side.step_at = [&, k, first](std::size_t i) -> const Step& { return decoded[k].steps[i - first]; };
    } else {
      shared[k] = predecode_shared(spec, program, distinct, m, {}, side.positions);
      upper[k] = second_thread_halves(fast, spec, shared[k].steps, *shared[k].tiles, [&](const Step& s) -> const Instruction& {
        return distinct.at(static_cast<std::size_t>(s.instruction));
      });
      stats.cut += upper[k].steps.size();
      threads.push_back(std::make_unique<TwoThreads>(m));
      side.run = [&, k, first](std::size_t from, std::size_t to) {
        const std::span<const uint32_t> order(shared[k].order);
        threads[k]->execute(shared[k].steps, order.subspan(from - first, to - from), upper[k], settings.interruption);
      };
      side.step_at = [&, k, first](std::size_t i) -> const Step& { return shared[k].steps[shared[k].order[i - first]]; };
    }
  }
  hold.unlock();
  mark(settings, "predecode");
  std::function<void(const Meeting&)> met;
  if (races)
    met = [&](const Meeting& m) {
      std::vector<MeetingSide> at;
      for (const std::size_t k : m.ops) at.push_back(MeetingSide{ops[k].core, ops[k].position});
      meet(races->order, at);
    };
  nisa::run_cores(sides, ops, meetings.meetings, met);
  mark(settings, "execute");
  return stats;
}

}  // namespace

RunStats run_loaded_program(const Spec& spec, LoadedProgram& loaded, Machine& machine, const RunSettings& settings) {
  if (core_count(loaded.program) > 1) return run_cores(spec, loaded, machine, settings);
  const Program& program = loaded.program;
  DistinctInstructions& distinct = loaded.distinct;
  RunStats stats;
  stats.instructions = distinct.size();
  set_loop_settings(machine, 1, settings);
  const ForgetLoopTrips forget{machine, 1};
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
    const bool skip_dead = fast && !has_loops(spec, distinct);
    SharedSteps shared = predecode_shared(spec, program, distinct, machine, [&](uint32_t k, const Instruction& ins) {
      if (skip_dead) effects.add(spec, program, k, ins);
    });
    if (skip_dead) stats.dead = drop_dead_positions(spec, program, distinct, shared.order, &effects);
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
  if (core_count(loaded.program) > 1) throw InputError("lockstep runs programs for one core");
  std::unique_lock hold(loaded.lock);
  const DecodedProgram decoded = predecode(spec, loaded.program, loaded.distinct, machine);
  hold.unlock();
  on_state(-1, 0);
  walk_positions(0, decoded.steps.size(), machine, [&](std::size_t i) -> const Step& { return decoded.steps[i]; }, [&](std::size_t i) {
    between_steps(interruption);
    execute_step(decoded.steps[i], machine);
    on_state(static_cast<std::ptrdiff_t>(i), decoded.steps[i].line);
  });
}

}  // namespace nisa
