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

}  // namespace

Timeline build_timeline(const Spec& spec, const Program& program) {
  Timeline tl;
  for (int e = 0; e < kEngineCount; ++e) tl.clock_ghz[e] = engine_clock_ghz(spec, program, static_cast<Engine>(e));
  double wait_ns[kEngineCount];
  const double wait_cycles = spec.cross_engine_wait.evaluate(CostInputs{});
  for (int e = 0; e < kEngineCount; ++e) wait_ns[e] = wait_cycles / tl.clock_ghz[e];

  const std::size_t n = program.instructions.size();
  tl.instructions.resize(n);
  AccessIndex index(spec, program);
  std::vector<Access> accesses;
  std::vector<uint32_t> seen_by(n, UINT32_MAX);  // instruction that last listed it as a dependency
  std::vector<uint32_t> position(n, 0);          // where in that list
  double engine_free[kEngineCount] = {};

  for (std::size_t i = 0; i < n; ++i) {
    const Instruction& ins = program.instructions[i];
    const InstructionSpec& is = spec.instructions[static_cast<std::size_t>(ins.spec_index)];
    TimedInstruction& ti = tl.instructions[i];
    const Engine engine = executing_engine(is, ins);  // engine= may choose it
    ti.engine = engine;
    ti.cycles = instruction_cycles(spec, program, ins);
    const int e = static_cast<int>(engine);
    collect_accesses(program, is, ins, engine, accesses);
    for (const Access& a : accesses)
      index.conflicts(a, [&](const AccessRecord& r, uint8_t kind) {
        if (r.instruction == i) return;
        if (seen_by[r.instruction] != i) {
          seen_by[r.instruction] = static_cast<uint32_t>(i);
          position[r.instruction] = static_cast<uint32_t>(ti.dependencies.size());
          ti.dependencies.push_back(Dependency{r.instruction, 0});
        }
        ti.dependencies[position[r.instruction]].kinds |= kind;
      });
    double start = engine_free[e];
    for (const Dependency& d : ti.dependencies) {
      const TimedInstruction& before = tl.instructions[d.instruction];
      start = std::max(start, before.end_ns + (before.engine != engine ? wait_ns[e] : 0.0));
    }
    std::sort(ti.dependencies.begin(), ti.dependencies.end(),
              [](const Dependency& a, const Dependency& b) { return a.instruction < b.instruction; });
    ti.start_ns = start;
    ti.end_ns = start + ti.cycles / tl.clock_ghz[e];
    engine_free[e] = ti.end_ns;
    tl.span_ns = std::max(tl.span_ns, ti.end_ns);
    for (const Access& a : accesses) index.insert(a, static_cast<uint32_t>(i), engine);
  }
  return tl;
}

}  // namespace nisa
