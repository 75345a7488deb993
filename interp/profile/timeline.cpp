// Dependency search and scheduling for the static timeline (S6).
//
// Every memory access is a rectangle: partitions [p0, p1) x bytes [b0, b1)
// (the bounding box of the view within each partition; for HBM tensors the
// rows of dimension 0 play the partitions). Each memory space (SBUF, PSUM, each engine's accumulator, each
// HBM tensor) keeps its live access records in buckets by byte range, so a new
// access only looks at records near its own bytes. Records are retired once a
// later access makes them redundant (a write covering them; a read on the
// same engine covering an earlier read): that later instruction depended on
// them and ends no earlier, so it carries the same constraint. This keeps the
// search about linear in program length (tests/profile measures 100k
// instructions).
#include "timeline.hpp"

#include <algorithm>
#include <cstddef>

#include "cost_model.hpp"
#include "cross_core.hpp"
#include "error.hpp"
#include "memory_access.hpp"

namespace nisa {

namespace {

struct AccessRecord {
  Rect rect;
  uint32_t instruction = 0;
  uint32_t visit = 0;  // stamp of the last scan that saw it (records span several buckets)
  Engine engine{};
  bool write = false;
  bool live = true;
};

struct Space {
  int64_t bucket_bytes = 1;
  bool accumulator = false;
  std::vector<std::vector<uint32_t>> buckets;  // record ids
};

class AccessIndex {
 public:
  AccessIndex(const Spec& spec, const Program& program) {
    const ArchSpec& arch = spec.archs[static_cast<std::size_t>(program.arch)];
    add_space(arch.sbuf_partition_bytes, false);
    add_space(arch.psum_partition_bytes, false);
    for (int e = 0; e < kEngineCount; ++e) add_space(1, true);
    for (const TensorDecl& t : program.tensors)
      add_space(t.memory == Memory::hbm ? hbm_row_bytes(t) : 1, false);
  }

  // Calls found(record, kind) for every live record that conflicts with `a`.
  template <class Found>
  void conflicts(const Access& a, Found&& found) {
    const uint8_t base_kind = spaces_[a.space].accumulator ? dependency_accumulator : 0;
    scan(a, [&](AccessRecord& r) {
      if (!(a.write || r.write) || !r.rect.overlaps(a.rect)) return;
      const uint8_t kind = base_kind ? base_kind : !a.write ? dependency_raw : r.write ? dependency_waw : dependency_war;
      found(r, kind);
    });
  }

  // Records `a` of `instruction` and retires the records it makes redundant.
  void insert(const Access& a, uint32_t instruction, Engine engine) {
    scan(a, [&](AccessRecord& r) {
      if (!r.rect.inside(a.rect)) return;
      if (a.write || (!r.write && r.engine == engine)) r.live = false;
    });
    const uint32_t id = static_cast<uint32_t>(records_.size());
    records_.push_back(AccessRecord{a.rect, instruction, 0, engine, a.write, true});
    Space& s = spaces_[a.space];
    for (std::size_t b = first_bucket(s, a.rect); b <= last_bucket(s, a.rect); ++b) s.buckets[b].push_back(id);
  }

 private:
  std::vector<Space> spaces_;
  std::vector<AccessRecord> records_;
  uint32_t visit_ = 0;

  void add_space(int64_t bytes, bool accumulator) {
    Space s;
    s.accumulator = accumulator;
    s.bucket_bytes = std::max<int64_t>(64, (bytes + 127) / 128);  // at most 128 buckets
    s.buckets.resize(static_cast<std::size_t>((std::max<int64_t>(bytes, 1) + s.bucket_bytes - 1) / s.bucket_bytes));
    spaces_.push_back(std::move(s));
  }
  static std::size_t first_bucket(const Space& s, const Rect& r) {
    return std::min(static_cast<std::size_t>(std::max<int64_t>(r.b0, 0) / s.bucket_bytes), s.buckets.size() - 1);
  }
  static std::size_t last_bucket(const Space& s, const Rect& r) {
    return std::min(static_cast<std::size_t>(std::max<int64_t>(r.b1 - 1, 0) / s.bucket_bytes), s.buckets.size() - 1);
  }

  // Visits each live record of the buckets `a` touches once, dropping dead ids.
  template <class Visit>
  void scan(const Access& a, Visit&& visit) {
    Space& s = spaces_[a.space];
    const uint32_t stamp = ++visit_;
    for (std::size_t b = first_bucket(s, a.rect); b <= last_bucket(s, a.rect); ++b) {
      std::vector<uint32_t>& ids = s.buckets[b];
      std::size_t kept = 0;
      for (std::size_t k = 0; k < ids.size(); ++k) {
        AccessRecord& r = records_[ids[k]];
        if (!r.live) continue;
        ids[kept++] = ids[k];
        if (r.visit == stamp) continue;
        r.visit = stamp;
        visit(r);
      }
      ids.resize(kept);
    }
  }
};

// The meetings of a checked program (S16) and its cross-core instructions
// (`ops`, which the meetings index), as match_meetings finds them. A checked
// program's always match.
std::vector<Meeting> meetings_of(const Spec& spec, const Program& program, std::vector<CrossCoreOp>& ops) {
  std::vector<uint32_t> last_line;
  for (int core = 0; core < core_count(program); ++core) {
    const PositionRange range = core_positions(program, core, program.instructions.size());
    last_line.push_back(range.end > range.begin ? program.instructions[range.end - 1].line : 0);
    for (std::size_t i = range.begin; i < range.end; ++i) {
      const Instruction& ins = program.instructions[i];
      if (spec.instructions[static_cast<std::size_t>(ins.spec_index)].cross_core != CrossCore::none)
        ops.push_back(CrossCoreOp{core, i, ins, 0});
    }
  }
  CoreMeetings found = match_meetings(spec, program, ops, last_line);
  if (found.failure)
    throw InputError(program.file + ":" + std::to_string(found.failure->line) + ": error: " + found.failure->message);
  return std::move(found.meetings);
}

// Where each loop of a checked program ends: for a fori_loop/while_loop
// position, its end_loop's (loops nest and close within a core: S17.2).
std::vector<uint32_t> loop_ends(const Spec& spec, const Program& program, bool& any) {
  std::vector<uint32_t> ends(program.instructions.size(), 0);
  std::vector<uint32_t> open;
  for (std::size_t i = 0; i < program.instructions.size(); ++i) {
    const Sequencer s = spec.instructions[static_cast<std::size_t>(program.instructions[i].spec_index)].sequencer;
    if (starts_loop(s)) {
      open.push_back(static_cast<uint32_t>(i));
      any = true;
    } else if (s == Sequencer::end_loop && !open.empty()) {
      ends[open.back()] = static_cast<uint32_t>(i);
      open.pop_back();
    }
  }
  return ends;
}

// Lays out the instructions, each core in the order it ran them (program
// order, loop bodies once per iteration) on its own engines and with its own
// dependency search.
class Scheduler {
 public:
  Scheduler(const Spec& spec, const Program& program, Timeline& tl, const LoopTrips* trips)
      : spec_(spec), program_(program), tl_(tl) {
    for (int e = 0; e < kEngineCount; ++e) tl.clock_ghz[e] = engine_clock_ghz(spec, program, static_cast<Engine>(e));
    const double wait_cycles = spec.cross_engine_wait.evaluate(CostInputs{});
    for (int e = 0; e < kEngineCount; ++e) wait_ns_[e] = wait_cycles / tl.clock_ghz[e];
    tl.cores = core_count(program);
    tl.program_instructions = program.instructions.size();
    loop_end_ = loop_ends(spec, program, tl.loops);
    if (!tl.loops) {  // one timed instruction per position, at its index
      tl.instructions.resize(program.instructions.size());
      seen_by_.assign(program.instructions.size(), UINT32_MAX);
      position_.assign(program.instructions.size(), 0);
    }
    cores_.reserve(static_cast<std::size_t>(tl.cores));
    for (int c = 0; c < tl.cores; ++c) {
      const PositionRange range = core_positions(program, c, program.instructions.size());
      const std::vector<uint64_t>* log =
          trips != nullptr && static_cast<std::size_t>(c) < trips->size() ? &(*trips)[static_cast<std::size_t>(c)] : nullptr;
      cores_.emplace_back(spec, program, range, log);
    }
  }

  // Lays out core c's instructions until it reaches position `to` (not
  // laid out): a meeting's instruction (never inside a loop) or its end.
  void advance(int c, std::size_t to) {
    CoreState& core = cores_[static_cast<std::size_t>(c)];
    while (core.next != to) {
      const std::size_t at = core.next;
      uint32_t timed = 0;
      const double ready = prepare(c, at, accesses_, timed);
      place(c, timed, ready, duration(timed), accesses_);
      step(core, at);
    }
  }

  // Lays out a meeting: each core up to its instruction there, then those
  // instructions together (S16.4).
  void meet(const Meeting& m, const std::vector<CrossCoreOp>& ops) {
    TimedMeeting timed;
    meeting_accesses_.resize(m.ops.size());
    double start = 0, longest = 0;
    for (std::size_t k = 0; k < m.ops.size(); ++k) {
      const CrossCoreOp& op = ops[m.ops[k]];
      advance(op.core, op.position);
      uint32_t index = 0;
      timed.ready_ns.push_back(prepare(op.core, op.position, meeting_accesses_[k], index));
      timed.instructions.push_back(index);
      start = std::max(start, timed.ready_ns.back());
      longest = std::max(longest, duration(index));
    }
    for (std::size_t k = 0; k < m.ops.size(); ++k) {
      const CrossCoreOp& op = ops[m.ops[k]];
      place(op.core, timed.instructions[k], start, longest, meeting_accesses_[k]);
      step(cores_[static_cast<std::size_t>(op.core)], op.position);
    }
    tl_.meetings.push_back(std::move(timed));
  }

  void finish() {
    for (int c = 0; c < tl_.cores; ++c) advance(c, cores_[static_cast<std::size_t>(c)].end);
  }

 private:
  struct Loop {
    std::size_t body = 0;    // its first position
    uint64_t remaining = 0;  // iterations still to lay out, this one included
  };
  struct CoreState {
    CoreState(const Spec& spec, const Program& program, PositionRange range, const std::vector<uint64_t>* log)
        : index(spec, program), next(range.begin), end(range.end), trips(log) {}
    AccessIndex index;
    double engine_free[kEngineCount] = {};
    std::size_t next, end;
    std::vector<Loop> loops;                // the loops it is inside, innermost last
    const std::vector<uint64_t>* trips;     // the run's loop entries, or nullptr: each loop once
    std::size_t entries = 0;                // how many of them it has laid out
  };

  const Spec& spec_;
  const Program& program_;
  Timeline& tl_;
  std::vector<CoreState> cores_;
  std::vector<uint32_t> loop_end_;
  double wait_ns_[kEngineCount] = {};
  std::vector<uint32_t> seen_by_;   // per timed instruction: the one that last listed it as a dependency
  std::vector<uint32_t> position_;  // where in that list
  std::vector<Access> accesses_;
  std::vector<std::vector<Access>> meeting_accesses_;

  double duration(uint32_t timed) const {
    const TimedInstruction& ti = tl_.instructions[timed];
    return ti.cycles / tl_.clock_ghz[static_cast<int>(ti.engine)];
  }

  // The position core runs after `at` (S17.2's walk, with the iteration
  // counts the run recorded).
  void step(CoreState& core, std::size_t at) {
    const Sequencer s = spec_.instructions[static_cast<std::size_t>(program_.instructions[at].spec_index)].sequencer;
    if (starts_loop(s)) {
      uint64_t trips = 1;
      if (core.trips != nullptr) {
        if (core.entries >= core.trips->size())
          throw InputError(program_.file + ":" + std::to_string(program_.instructions[at].line) +
                           ": error: the profile has no iteration count for this loop entry (internal)");
        trips = (*core.trips)[core.entries++];
      }
      if (trips == 0) {
        core.next = loop_end_[at] + std::size_t{1};
        return;
      }
      core.loops.push_back(Loop{at + 1, trips});
    } else if (s == Sequencer::end_loop) {
      Loop& loop = core.loops.back();
      if (--loop.remaining > 0) {
        core.next = loop.body;
        return;
      }
      core.loops.pop_back();
    }
    core.next = at + 1;
  }

  // A new timed instruction (`timed`) for position i of core c: engine,
  // cycles, accesses and dependencies; returns when it could start: its
  // engine free, its dependencies ended.
  double prepare(int c, std::size_t i, std::vector<Access>& accesses, uint32_t& timed) {
    CoreState& core = cores_[static_cast<std::size_t>(c)];
    const Instruction& ins = program_.instructions[i];
    const InstructionSpec& is = spec_.instructions[static_cast<std::size_t>(ins.spec_index)];
    if (tl_.loops) {  // in the order they are laid out
      timed = static_cast<uint32_t>(tl_.instructions.size());
      tl_.instructions.emplace_back();
      seen_by_.push_back(UINT32_MAX);
      position_.push_back(0);
    } else {
      timed = static_cast<uint32_t>(i);
    }
    TimedInstruction& ti = tl_.instructions[timed];
    ti.position = static_cast<uint32_t>(i);
    // S17.4: sequencer instructions are laid out on the engine the spec names
    // (the DMA queue's row; SEMANTICS S6).
    const Engine engine = executing_engine(is, ins);  // engine= may choose it
    ti.engine = engine;
    ti.core = c;
    ti.cycles = instruction_cycles(spec_, program_, ins);
    const int e = static_cast<int>(engine);
    collect_accesses(program_, is, ins, engine, accesses);
    if (is.cross_core == CrossCore::barrier)  // S16.4: the point after which `data` is whole
      for (Access& a : accesses) a.write = true;
    for (const Access& a : accesses)
      core.index.conflicts(a, [&](const AccessRecord& r, uint8_t kind) {
        if (r.instruction == timed) return;
        if (seen_by_[r.instruction] != timed) {
          seen_by_[r.instruction] = timed;
          position_[r.instruction] = static_cast<uint32_t>(ti.dependencies.size());
          ti.dependencies.push_back(Dependency{r.instruction, 0});
        }
        ti.dependencies[position_[r.instruction]].kinds |= kind;
      });
    double ready = core.engine_free[e];
    for (const Dependency& d : ti.dependencies) {
      const TimedInstruction& before = tl_.instructions[d.instruction];
      ready = std::max(ready, before.end_ns + (before.engine != engine ? wait_ns_[e] : 0.0));
    }
    std::sort(ti.dependencies.begin(), ti.dependencies.end(),
              [](const Dependency& a, const Dependency& b) { return a.instruction < b.instruction; });
    return ready;
  }

  void place(int c, uint32_t timed, double start, double duration, const std::vector<Access>& accesses) {
    CoreState& core = cores_[static_cast<std::size_t>(c)];
    TimedInstruction& ti = tl_.instructions[timed];
    ti.start_ns = start;
    ti.end_ns = start + duration;
    core.engine_free[static_cast<int>(ti.engine)] = ti.end_ns;
    tl_.span_ns = std::max(tl_.span_ns, ti.end_ns);
    for (const Access& a : accesses) core.index.insert(a, timed, ti.engine);
  }
};

}  // namespace

Timeline build_timeline(const Spec& spec, const Program& program, const LoopTrips* trips) {
  Timeline tl;
  std::vector<CrossCoreOp> ops;
  const std::vector<Meeting> meetings = meetings_of(spec, program, ops);
  Scheduler scheduler(spec, program, tl, trips);
  for (const Meeting& m : meetings) scheduler.meet(m, ops);  // each core's meetings come in its program order
  scheduler.finish();
  return tl;
}

}  // namespace nisa
