#include "dead_stores.hpp"

#include <algorithm>
#include <span>

#include "memory_access.hpp"

namespace nisa {

namespace {

// Bytes that every path from here on overwrites before reading, per space:
// rectangles, each written exactly by one later instruction. A byte inside
// two rectangles is missed (conservative); a space holds at most kMaxRects,
// and a new one then replaces an old one (conservative too), so each step of
// the pass costs a few comparisons and no allocation.
class KilledBytes {
 public:
  explicit KilledBytes(std::size_t spaces) : spaces_(spaces) {}

  bool killed(const Access& a) const {
    const Space& s = spaces_[a.space];
    for (int k = 0; k < s.count; ++k)
      if (a.rect.inside(s.rects[k])) return true;
    return false;
  }
  // A later write covers these bytes (an earlier value of them is dead).
  void kill(const Access& a) {
    Space& s = spaces_[a.space];
    remove_if(s, [&](const Rect& r) { return r.inside(a.rect); });
    if (s.count < kMaxRects) {
      s.rects[s.count++] = a.rect;
    } else {
      s.rects[s.next_replaced] = a.rect;
      s.next_replaced = (s.next_replaced + 1) % kMaxRects;
    }
  }
  // Something reads (or may read) these bytes: an earlier value of them is live.
  void revive(std::size_t space, const Rect& rect) {
    remove_if(spaces_[space], [&](const Rect& r) { return r.overlaps(rect); });
  }
  void revive_all(std::size_t space) { spaces_[space].count = 0; }

 private:
  static constexpr int kMaxRects = 16;
  struct Space {
    Rect rects[kMaxRects];
    int count = 0;
    int next_replaced = 0;
  };
  template <class Matches>
  static void remove_if(Space& s, Matches&& matches) {
    for (int k = 0; k < s.count;)
      if (matches(s.rects[k])) s.rects[k] = s.rects[--s.count];
      else ++k;
  }
  std::vector<Space> spaces_;
};

// What the pass needs of one instruction, worked out once per distinct one;
// its accesses are entries [first, first + count) of one list for them all
// (no allocation per instruction).
struct Effects {
  bool skippable = false;  // the spec's writes_whole_outputs
  std::size_t accumulator = 0;  // space of its engine's accumulator
  bool folds = false;           // reduce_cmd=reduce: reads the lanes it writes
  bool command = false;         // a reduce_cmd other than idle
  uint32_t first = 0, count = 0;
};

class EffectsList {
 public:
  // Appends the effects of `ins`; returns their index.
  uint32_t add(const Spec& spec, const Program& program, const Instruction& ins) {
    Effects e;
    const InstructionSpec& is = spec.instructions[static_cast<std::size_t>(ins.spec_index)];
    const Engine engine = executing_engine(is, ins);
    e.skippable = is.writes_whole_outputs;
    collect_accesses(program, is, ins, engine, scratch_);
    e.accumulator = accumulator_space(engine);
    e.folds = is.cost.accumulator_command >= 0 &&
              static_cast<ReduceCmd>(ins.operands[static_cast<std::size_t>(is.cost.accumulator_command)].integer) ==
                  ReduceCmd::reduce;
    for (const Access& a : scratch_) e.command = e.command || (a.space == e.accumulator && a.write);
    e.first = static_cast<uint32_t>(accesses_.size());
    e.count = static_cast<uint32_t>(scratch_.size());
    accesses_.insert(accesses_.end(), scratch_.begin(), scratch_.end());
    effects_.push_back(e);
    return static_cast<uint32_t>(effects_.size() - 1);
  }
  const Effects& operator[](uint32_t k) const { return effects_[k]; }
  std::span<const Access> accesses(const Effects& e) const { return {accesses_.data() + e.first, e.count}; }

 private:
  std::vector<Effects> effects_;
  std::vector<Access> accesses_;
  std::vector<Access> scratch_;
};

// One step backwards: whether the instruction is dead, and what is killed
// before it.
bool dead_before(const Effects& e, std::span<const Access> accesses, KilledBytes& killed) {
  if (!e.skippable) {
    // Unknown effects: its writes may be partial or read-modify-write, and
    // it may use the accumulators through other operands (load_reduce).
    for (const Access& a : accesses) killed.revive(a.space, a.rect);
    for (int k = 0; k < kEngineCount; ++k) killed.revive_all(accumulator_space(static_cast<Engine>(k)));
    return false;
  }
  bool writes = false, all_killed = true;
  for (const Access& a : accesses)
    if (a.write) {
      writes = true;
      all_killed = all_killed && killed.killed(a);
    }
  if (writes && all_killed) return true;  // skipped: its reads do not happen either
  // Accumulator lanes (S3): reset and reset_reduce replace them, reduce
  // folds into their old values; reduce_res reads the command's lanes after
  // the command, so only with an idle command does it read older values (of
  // the lanes of the instruction's input partitions, which reduce_res's own
  // partitions need not name: then all lanes count).
  // It reads its inputs before it writes: kill its writes, then revive its reads.
  for (const Access& a : accesses)
    if (a.write && a.exact && !(a.space == e.accumulator && e.folds)) killed.kill(a);
  for (const Access& a : accesses) {
    if (a.space != e.accumulator) {
      if (!a.write) killed.revive(a.space, a.rect);
    } else if (a.write && e.folds) {
      killed.revive(a.space, a.rect);
    } else if (!a.write && !e.command) {
      killed.revive_all(a.space);
    }
  }
  return false;
}

constexpr uint32_t kUnknown = UINT32_MAX;

// Backwards: what position i writes is dead when everything after it
// overwrites it before reading it. The program's end reads everything.
// effects_at(i) is the index in `list` of position i's effects.
template <class EffectsAt>
std::vector<bool> dead_backwards(const Program& program, std::size_t positions, const EffectsList& list, EffectsAt&& effects_at) {
  std::vector<bool> dead(positions, false);
  KilledBytes killed(2 + kEngineCount + program.tensors.size());
  for (std::size_t i = positions; i-- > 0;) {
    const Effects& e = list[effects_at(i)];
    dead[i] = dead_before(e, list.accesses(e), killed);
  }
  return dead;
}

}  // namespace

std::vector<bool> dead_positions(const Spec& spec, const Program& program, std::size_t positions,
                                 const std::function<uint32_t(std::size_t)>& which,
                                 const std::function<const Instruction&(std::size_t)>& at) {
  EffectsList list;
  std::vector<uint32_t> known;  // per distinct instruction: its effects, or kUnknown
  return dead_backwards(program, positions, list, [&](std::size_t i) {
    const uint32_t k = which(i);
    if (k >= known.size()) known.resize(k + 1, kUnknown);
    if (known[k] == kUnknown) known[k] = list.add(spec, program, at(i));
    return known[k];
  });
}

std::vector<bool> dead_instructions(const Spec& spec, const Program& program) {
  EffectsList list;
  for (const Instruction& ins : program.instructions) list.add(spec, program, ins);
  return dead_backwards(program, program.instructions.size(), list, [](std::size_t i) { return static_cast<uint32_t>(i); });
}

struct StoreEffects::List : EffectsList {};

StoreEffects::StoreEffects() : list_(std::make_unique<List>()) {}
StoreEffects::~StoreEffects() = default;

void StoreEffects::add(const Spec& spec, const Program& program, uint32_t distinct, const Instruction& ins) {
  if (distinct >= of_.size()) of_.resize(distinct + 1, kUnknown);
  if (of_[distinct] == kUnknown) of_[distinct] = list_->add(spec, program, ins);
}

std::size_t drop_dead_positions(const Spec& spec, const Program& program, DistinctInstructions& instructions,
                                std::vector<uint32_t>& order, StoreEffects* known) {
  // Every distinct instruction's effects (those not gathered yet in the
  // order they are stored in), then the pass over positions reads only them.
  StoreEffects own;
  StoreEffects& effects = known != nullptr ? *known : own;
  for (uint32_t k = 0; k < instructions.distinct_count(); ++k) effects.add(spec, program, k, instructions.distinct(k));
  const std::vector<bool> dead = dead_backwards(program, instructions.size(), *effects.list_,
                                                [&](std::size_t i) { return effects.of_[instructions.which(i)]; });
  std::size_t kept = 0;
  for (std::size_t i = 0; i < order.size(); ++i)
    if (!dead[i]) order[kept++] = order[i];
  const std::size_t dropped = order.size() - kept;
  order.resize(kept);
  return dropped;
}

void skipped_step(const Step&, Machine&) {}

std::size_t skip_dead_steps(const Spec& spec, const Program& program, std::vector<Step>& steps) {
  const std::vector<bool> dead = dead_instructions(spec, program);
  std::size_t skipped = 0;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    if (!dead[i]) continue;
    steps[i].run = skipped_step;
    steps[i].staged = false;
    ++skipped;
  }
  return skipped;
}

}  // namespace nisa
