#include "hbm_races.hpp"

#include <algorithm>
#include <limits>
#include <utility>

#include "error.hpp"

namespace nisa {
namespace {

enum class Conflict { reads_written, writes_written, writes_read };

int core_of(const HbmRaces& r, std::size_t position) {
  const auto after = std::upper_bound(r.core_begin.begin(), r.core_begin.end(), position);
  return static_cast<int>(after - r.core_begin.begin()) - 1;
}

// "[i, j, ...]" of flat element `flat` of a tensor of `shape` (row-major).
std::string element_text(const std::vector<int64_t>& shape, int64_t flat) {
  std::vector<int64_t> index(shape.size(), 0);
  for (std::size_t d = shape.size(); d-- > 0;) {
    index[d] = flat % shape[d];
    flat /= shape[d];
  }
  std::string text = "[";
  for (std::size_t d = 0; d < index.size(); ++d) text += (d ? ", " : "") + std::to_string(index[d]);
  return text + "]";
}

std::string instruction_text(const HbmRaces& r, int core, std::size_t position) {
  const InstructionSite site = r.site_at(core, position);
  return "core " + std::to_string(core) + "'s " + site.name + " (line " + std::to_string(site.line) + ")";
}

[[noreturn]] void race(const HbmRaces& r, const Step& s, int core, const SharedTensorAccesses& t, int64_t element,
                       Conflict conflict, std::size_t earlier) {
  const TensorDecl& decl = r.program->tensors[static_cast<std::size_t>(t.tensor)];
  const char* verb = conflict == Conflict::reads_written ? " reads" : " writes";
  const char* other = conflict == Conflict::writes_read ? " reads" : conflict == Conflict::writes_written ? " also writes" : " writes";
  StrictFault{*r.program}(s, instruction_text(r, core, static_cast<std::size_t>(s.instruction)) + verb + " element " +
                                 element_text(decl.shape, element) + " of '" + decl.name + "', which " +
                                 instruction_text(r, core_of(r, earlier), earlier) + other +
                                 ", and no sendrecv or core_barrier orders the two (S16.5)");
}

// The step at hand: core `core`'s at position here - 1. Per core d, the
// positions [from[d], from[d] + count[d]) are not ordered before it (d's
// instructions after what `core` learnt of it; none of its own): an entry
// v of SharedTensorAccesses::last (one past a position, 0: none) is
// unordered when v - 1 - from[d] < count[d] in unsigned arithmetic.
struct StepScope {
  HbmRaces& races;
  const Step& step;
  int core;
  uint32_t here;
  const std::size_t* from;
  const std::size_t* count;
  std::size_t cores;

  bool unordered(uint32_t entry, std::size_t d) const { return static_cast<std::size_t>(entry) - 1 - from[d] < count[d]; }
};

// Elements first, first + step, ... (`n` of them) of tensor `t`, read or
// written by the step at hand: each checked against its last write (any
// access) and, for a write, each other core's last read, then recorded.
void access_elements(const StepScope& scope, SharedTensorAccesses& t, int64_t first, int64_t step, int64_t n, bool writes) {
  const std::size_t entries = scope.cores + 1;
  uint32_t* records = reinterpret_cast<uint32_t*>(t.last.data());
  for (int64_t k = 0; k < n; ++k) {
    const int64_t element = first + k * step;
    uint32_t* last = records + static_cast<std::size_t>(element) * entries;
    for (std::size_t d = 0; d < scope.cores; ++d)
      if (scope.unordered(last[0], d))
        race(scope.races, scope.step, scope.core, t, element, writes ? Conflict::writes_written : Conflict::reads_written, last[0] - 1u);
    if (!writes) {
      last[1 + scope.core] = scope.here;
      continue;
    }
    for (std::size_t d = 0; d < scope.cores; ++d)
      if (scope.unordered(last[1 + d], d)) race(scope.races, scope.step, scope.core, t, element, Conflict::writes_read, last[1 + d] - 1u);
    last[0] = scope.here;
  }
}

// The shared tensor tile `t` lies in, or nullptr (SBUF, PSUM, private HBM).
SharedTensorAccesses* shared_tensor(HbmRaces& r, const TileAccess& t) {
  if (t.memory != Memory::hbm || t.base == nullptr) return nullptr;
  const auto at = std::lower_bound(r.tensors.begin(), r.tensors.end(), t.origin,
                                   [](const SharedTensorAccesses& a, const uint8_t* b) { return a.base < b; });
  return at != r.tensors.end() && at->base == t.origin ? &*at : nullptr;
}

void check_use(const StepScope& scope, const TileUse& use) {
  SharedTensorAccesses* t = shared_tensor(scope.races, *use.tile);
  if (t == nullptr) return;
  auto element_at = [&](const uint8_t* address) { return (address - t->base) / t->element_size; };
  if (use.listed_elements) {
    std::vector<uint8_t*>& listed = scope.races.listed;
    listed.clear();
    scope.step.strict->written_elements(scope.step, listed);
    for (const uint8_t* address : listed) access_elements(scope, *t, element_at(address), 0, 1, use.writes);
    return;
  }
  // for_each_element's walk (strict.hpp), a row at a time.
  const TileAccess& tile = *use.tile;
  const int64_t rows = tile.row_length == 0 ? 0 : tile.elements / tile.row_length;
  const int64_t step = tile.element_stride / tile.element_size;
  for (int64_t p = 0; p < tile.partitions; ++p) {
    if ((tile.first_partition + p) % use.partition_every != 0) continue;
    int64_t shift = 0;
    if (!use.shift.empty()) {
      shift = use.shift[static_cast<std::size_t>(p)];
      if (shift == TileUse::kUntouched) continue;
    }
    for (int64_t row = 0; row < rows; ++row)
      access_elements(scope, *t, element_at(tile.partition(p) + tile.row_offsets[static_cast<std::size_t>(row)] + shift), step,
                      tile.row_length, use.writes);
  }
}

}  // namespace

HbmRaces start_hbm_races(const Program& program, Machine& machine, std::size_t positions,
                         std::function<InstructionSite(int core, std::size_t position)> site_at) {
  // Positions are kept one past, in 32 bits (the assembler's limit is far below).
  if (positions >= std::numeric_limits<uint32_t>::max())
    throw RuntimeFault(program.file + ": error: --strict checks programs for several cores of fewer than 2^32 - 1 instructions");
  HbmRaces r;
  r.program = &program;
  const int cores = core_count(program);
  r.order = start_core_order(cores);
  for (int c = 0; c < cores; ++c) {
    const PositionRange range = core_positions(program, c, positions);
    r.core_begin.push_back(range.begin);
    r.core_end.push_back(range.end);
  }
  r.unordered_from.resize(static_cast<std::size_t>(cores));
  r.unordered_count.resize(static_cast<std::size_t>(cores));
  r.site_at = std::move(site_at);
  for (std::size_t k = 0; k < program.tensors.size(); ++k) {
    const TensorDecl& d = program.tensors[k];
    const ZeroedBytes& bytes = machine.hbm[k];
    if (d.memory != Memory::hbm || d.core != TensorDecl::kShared || bytes.size() == 0) continue;
    const auto element_size = static_cast<int64_t>(dtype_size(d.dtype));
    const std::size_t elements = bytes.size() / static_cast<std::size_t>(element_size);
    r.tensors.push_back(SharedTensorAccesses{static_cast<int32_t>(k), bytes.data(), element_size,
                                             ZeroedBytes(elements * (static_cast<std::size_t>(cores) + 1) * sizeof(uint32_t))});
  }
  std::sort(r.tensors.begin(), r.tensors.end(), [](const auto& a, const auto& b) { return a.base < b.base; });
  return r;
}

void check_hbm_step(HbmRaces& r, int core, const Step& s) {
  r.uses.clear();
  step_tile_uses(s, r.uses);
  const auto cores = static_cast<std::size_t>(r.order.cores);
  for (std::size_t d = 0; d < cores; ++d) {
    const std::size_t from = std::max(first_unordered(r.order, static_cast<int>(d), core), r.core_begin[d]);
    r.unordered_from[d] = from;
    r.unordered_count[d] = from < r.core_end[d] ? r.core_end[d] - from : 0;
  }
  const StepScope scope{r, s, core, static_cast<uint32_t>(s.instruction + 1), r.unordered_from.data(), r.unordered_count.data(), cores};
  // Reads before writes: a step reads its inputs before it writes its result.
  for (const TileUse& use : r.uses)
    if (!use.writes) check_use(scope, use);
  for (const TileUse& use : r.uses)
    if (use.writes) check_use(scope, use);
}

}  // namespace nisa
