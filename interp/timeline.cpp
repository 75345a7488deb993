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

namespace nisa {

namespace {

struct Rect {
  int64_t p0 = 0, p1 = 0;  // partitions
  int64_t b0 = 0, b1 = 0;  // bytes within a partition (HBM: within a row)
  bool overlaps(const Rect& o) const { return p0 < o.p1 && o.p0 < p1 && b0 < o.b1 && o.b0 < b1; }
  bool inside(const Rect& o) const { return o.p0 <= p0 && p1 <= o.p1 && o.b0 <= b0 && b1 <= o.b1; }
};

struct Access {
  std::size_t space = 0;
  Rect rect;
  bool write = false;
};

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

// Bounding box of a view: its partitions (HBM: its rows, dimension 0), and
// the first and last byte of its other dimensions within a partition (row),
// row-major in the declared shape. A 1-D HBM tensor is one row.
// An access pattern's bounding rectangle: the partitions it covers (SBUF/PSUM)
// or the rows of dimension 0 between its first and last element (HBM; a
// pattern that spans rows takes them whole), conservative like strided slices.
Rect pattern_rect(const TensorDecl& t, const TensorView& view) {
  const int64_t size = static_cast<int64_t>(dtype_size(t.dtype));
  const bool hbm = t.memory == Memory::hbm;
  const int64_t row = t.shape.size() == 1 ? element_count(t.shape) : element_count(t.shape) / t.shape[0];
  int64_t lo = 0, hi = 0;
  for (std::size_t d = hbm ? 0 : 1; d < view.pattern.size(); ++d) {
    const int64_t reach = view.pattern[d].step * (view.pattern[d].num - 1);
    (reach < 0 ? lo : hi) += reach;
  }
  Rect r;
  if (!hbm) {
    r.p0 = view.offset / row;
    r.p1 = r.p0 + view.pattern[0].num;
    r.b0 = (view.offset % row + lo) * size + t.offset;
    r.b1 = (view.offset % row + hi + 1) * size + t.offset;
    return r;
  }
  const int64_t first = view.offset + lo, last = view.offset + hi;
  r.p0 = first / row;
  r.p1 = last / row + 1;
  r.b0 = r.p1 - r.p0 == 1 ? (first % row) * size : 0;
  r.b1 = r.p1 - r.p0 == 1 ? (last % row + 1) * size : row * size;
  return r;
}

Rect view_rect(const Program& program, const TensorView& view) {
  const TensorDecl& t = program.tensors[static_cast<std::size_t>(view.tensor)];
  if (view.indirect != IndirectKind::none) {  // a runtime index may reach any row: the whole tensor
    Rect r;
    r.p1 = t.shape.size() == 1 ? 1 : t.shape[0];
    r.b1 = (t.shape.size() == 1 ? element_count(t.shape) : element_count(t.shape) / t.shape[0]) *
           static_cast<int64_t>(dtype_size(t.dtype));
    return r;
  }
  if (view.is_pattern) return pattern_rect(t, view);
  const bool one_row = view.dims.size() == 1;
  const std::size_t first_dim = one_row ? 0 : 1;
  int64_t stride = 1, first = 0, last = 0;
  for (std::size_t d = view.dims.size(); d-- > first_dim;) {
    const DimSlice& s = view.dims[d];
    first += s.start * stride;
    last += (s.start + (s.count - 1) * s.step) * stride;
    stride *= t.shape[d];
  }
  const int64_t size = static_cast<int64_t>(dtype_size(t.dtype));
  const int64_t offset = t.memory == Memory::hbm ? 0 : t.offset;
  Rect r;
  r.b0 = first * size + offset;
  r.b1 = (last + 1) * size + offset;
  if (one_row) {
    r.p1 = 1;
  } else {
    const DimSlice& rows = view.dims[0];
    r.p0 = rows.start;
    r.p1 = rows.start + (rows.count - 1) * rows.step + 1;
  }
  return r;
}

// Bytes of one row of an HBM tensor (view_rect's byte range is within a row).
int64_t hbm_row_bytes(const TensorDecl& t) {
  int64_t n = static_cast<int64_t>(dtype_size(t.dtype));
  for (std::size_t d = t.shape.size() == 1 ? 0 : 1; d < t.shape.size(); ++d) n *= t.shape[d];
  return n;
}

bool empty_view(const TensorView& view) {
  for (const DimSlice& s : view.dims)
    if (s.count <= 0) return true;
  return false;
}

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

  static std::size_t space_of(const TensorDecl& t, std::size_t tensor) {
    if (t.memory == Memory::sbuf) return 0;
    if (t.memory == Memory::psum) return 1;
    return 2 + kEngineCount + tensor;
  }
  static std::size_t accumulator_space(Engine e) { return 2 + static_cast<std::size_t>(e); }

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

// The memory and accumulator accesses of one instruction, from the spec's
// written operands and accumulator operands (S3).
void collect_accesses(const Program& program, const InstructionSpec& is, const Instruction& ins, Engine engine, std::vector<Access>& out) {
  out.clear();
  const CostSpec& cost = is.cost;
  for (std::size_t o = 0; o < ins.operands.size(); ++o) {
    const Operand& op = ins.operands[o];
    const bool write = std::find(cost.written.begin(), cost.written.end(), static_cast<int>(o)) != cost.written.end();
    auto add = [&](const TensorView& v) {
      const TensorDecl& t = program.tensors[static_cast<std::size_t>(v.tensor)];
      out.push_back(Access{AccessIndex::space_of(t, static_cast<std::size_t>(v.tensor)), view_rect(program, v), write});
      for (const TensorView& index : v.index)  // a dynamic access reads its index tile
        out.push_back(Access{AccessIndex::space_of(program.tensors[static_cast<std::size_t>(index.tensor)], static_cast<std::size_t>(index.tensor)),
                             view_rect(program, index), false});
    };
    if (op.state == OperandState::tensor_list) {  // dma_compute's srcs: every view is read
      for (const TensorView& v : op.views)
        if (!empty_view(v)) add(v);
      continue;
    }
    if (op.state != OperandState::tensor || empty_view(op.view)) continue;
    add(op.view);
  }
  auto lanes = [&](const TensorView& v) {
    Rect r;
    r.p0 = view_partition_start(program, v);
    r.p1 = r.p0 + view_partitions(v);
    r.b1 = 1;
    return r;
  };
  const std::size_t acc = AccessIndex::accumulator_space(engine);
  if (cost.accumulator_command >= 0) {
    const Operand& cmd = ins.operands[static_cast<std::size_t>(cost.accumulator_command)];
    if (cmd.integer != cost.accumulator_idle)  // reset / reset_reduce / reduce change the lanes
      out.push_back(Access{acc, lanes(ins.operands[static_cast<std::size_t>(cost.size_of)].view), true});
  }
  if (cost.accumulator_result >= 0) {
    const Operand& res = ins.operands[static_cast<std::size_t>(cost.accumulator_result)];
    if (res.state == OperandState::tensor) out.push_back(Access{acc, lanes(res.view), false});
  }
}

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
