#include "tensor_indirection.hpp"

#include <cstring>
#include <new>
#include <string>

#include "strict.hpp"

namespace nisa {
namespace {

[[noreturn]] void outside_row(const TensorIndirection& side, int64_t column, int64_t index) {
  side.site.fault(index, " (column " + std::to_string(column) + " of the .indirect() view) reaches outside the " +
                             std::to_string(side.row_elements) + " elements of a partition of '" + side.site.tensor_name() + "'");
}

}  // namespace

const TensorIndirection* tensor_indirection(const DecodeContext& c, const TensorView& v, Engine engine) {
  if (v.indirect != IndirectKind::tensor) return nullptr;
  const TensorDecl& t = c.program.tensors[static_cast<std::size_t>(v.tensor)];
  TensorIndirection side;
  const TileAccess* index = c.tiles.view(v.index[0]);
  side.index = c.tiles.with_rows(index, 1);
  side.index_partitions = index->partitions;
  side.index_elements = index->elements;
  side.group = tensor_indirect_group(engine);
  side.step = v.pattern[1].step;
  side.row_elements = element_count(t.shape) / t.shape[0];
  side.first_free = v.offset % side.row_elements;
  side.element_size = static_cast<int64_t>(dtype_size(t.dtype));
  side.site = index_site(c, v);
  uint8_t* at = c.tiles.buffer(sizeof(TensorIndirection));
  return new (at) TensorIndirection(side);  // trivially destructible: the table's buffer owns it
}

void column_offsets(const TensorIndirection* side, const TileAccess& t, int64_t n, std::vector<int64_t>& out) {
  out.resize(static_cast<std::size_t>(n));
  if (side == nullptr) {
    for (int64_t i = 0; i < n; ++i) out[static_cast<std::size_t>(i)] = t.row_offsets[static_cast<std::size_t>(i)];
    return;
  }
  for (int64_t i = 0; i < n; ++i) {
    int64_t p = 0, e = 0;
    tensor_indirect_slot(i, side->group, side->index_partitions, side->index_elements, p, e);  // inside: checked at assembly
    const int64_t index = index_at(*side->index, p, e);
    // Bounded before multiplying: a u32 index times the step could overflow.
    const int64_t limit = side->row_elements;
    if (index < -limit || index > limit) outside_row(*side, i, index);
    const int64_t at = side->first_free + index * side->step;
    if (at < 0 || at >= limit) outside_row(*side, i, index);
    out[static_cast<std::size_t>(i)] = index * side->step * side->element_size;
  }
}

const TileAccess* indirect_start_tile(const DecodeContext& c, OperandSlot slot) {
  const TileAccess* t = c.tiles.with_rows(c.tile(slot), 1);
  if (c.operand(slot).view.indirect != IndirectKind::tensor) return t;
  TileAccess first = *t;
  first.elements = 1;
  first.counts = {1};
  first.strides = {first.element_size};
  first.row_offsets = {0};
  return c.tiles.add(std::move(first));
}

const TileAccess* streamed_tile(const DecodeContext& c, OperandSlot slot) {
  const TileAccess* t = c.tile(slot);
  const TensorView& v = c.operand(slot).view;
  if (v.indirect != IndirectKind::tensor) return t;
  const int64_t n = v.pattern[1].num;
  // Work space (TileTable::scratch): gathered or computed anew every time the
  // step runs, and such a step runs whole (never cut in two). Its size is
  // rounded up to 64 bytes plus the operand's index, so a step's staging
  // tiles never share a buffer (scratch has one per size).
  const auto bytes = static_cast<std::size_t>(t->partitions * n * t->element_size);
  const auto size = (bytes + 63) / 64 * 64 + static_cast<std::size_t>(slot.index);
  TileAccess staging = contiguous_tile(c.tiles.scratch(size), t->dtype, t->partitions, n);
  staging.first_partition = t->first_partition;
  return c.tiles.add(std::move(staging));
}

namespace {

// Moves the n columns of each partition between an .indirect() view (at
// `offsets` from its start) and its contiguous staging tile, bits as they
// are; one copy loop per element size, so each copy is a fixed-size move.
template <std::size_t kSize, bool kGather>
void move_columns(const TileAccess& view, const TileAccess& staging, const std::vector<int64_t>& offsets, int64_t partitions) {
  const std::size_t n = offsets.size();
  const int64_t* at = offsets.data();
  for (int64_t p = 0; p < partitions; ++p) {
    uint8_t* columns = view.partition(p);
    uint8_t* dense = staging.partition(p);
    for (std::size_t i = 0; i < n; ++i) {
      if constexpr (kGather) std::memcpy(dense + i * kSize, columns + at[i], kSize);
      else std::memcpy(columns + at[i], dense + i * kSize, kSize);
    }
  }
}

template <bool kGather>
void move_columns(const TileAccess& view, const TileAccess& staging, const std::vector<int64_t>& offsets, int64_t partitions) {
  switch (staging.element_size) {
    case 1: return move_columns<1, kGather>(view, staging, offsets, partitions);
    case 2: return move_columns<2, kGather>(view, staging, offsets, partitions);
    default: return move_columns<4, kGather>(view, staging, offsets, partitions);  // every dtype is 1, 2 or 4 bytes
  }
}

void gather(const TileAccess& view, const TileAccess& staging, const std::vector<int64_t>& offsets, int64_t partitions) {
  move_columns<true>(view, staging, offsets, partitions);
}

void scatter(const TileAccess& staging, const TileAccess& view, const std::vector<int64_t>& offsets, int64_t partitions) {
  move_columns<false>(view, staging, offsets, partitions);
}

// Column offsets of the step being run: buffers kept per thread (a step with
// an .indirect() view runs whole on one thread), so running one allocates
// nothing once the first has sized them.
thread_local std::vector<int64_t> gather_offsets, scatter_offsets;

// The step as its kernel sees it: the gathered inputs in their staging tiles.
Step gathered(const Step& s) {
  const IndirectStreams& k = *s.indirection;
  Step inner = s;
  std::vector<int64_t>& offsets = gather_offsets;
  for (int j = 1; j < 4; ++j) {
    if (k.side[j] == nullptr) continue;
    column_offsets(k.side[j], *k.view[j], k.columns[j], offsets);
    gather(*k.view[j], *k.staging[j], offsets, s.partitions);
    inner.in[j - 1] = k.staging[j];
  }
  if (k.final_dst) inner.dst = inner.in[0];  // a reduction streams its input as dst
  return inner;
}

void run_indirect_streams(const Step& s, Machine& m) {
  const IndirectStreams& k = *s.indirection;
  Step inner = gathered(s);
  std::vector<int64_t>& scattered = scatter_offsets;
  // dst's offsets are read before the kernel runs: its reduce_res may be the index.
  if (k.side[0] != nullptr) {
    column_offsets(k.side[0], *k.view[0], k.columns[0], scattered);
    if (k.gathers_dst) gather(*k.view[0], *k.staging[0], scattered, s.partitions);
    (k.final_dst ? inner.final_dst : inner.dst) = k.staging[0];
  }
  k.inner(inner, m);
  if (k.side[0] != nullptr) scatter(*k.staging[0], *k.view[0], scattered, s.partitions);
}

// --strict: the instruction's check on the values the kernel will read.
void check_gathered(const Step& s, const StrictFault& fault) { s.indirection->check(gathered(s), fault); }

// --strict: a scattered dst writes the indexed columns only.
void scattered_elements(const Step& s, std::vector<uint8_t*>& out) {
  const IndirectStreams& k = *s.indirection;
  std::vector<int64_t> offsets;
  column_offsets(k.side[0], *k.view[0], k.columns[0], offsets);
  for (int64_t p = 0; p < s.partitions; ++p)
    for (const int64_t at : offsets) out.push_back(k.view[0]->partition(p) + at);
}

// --strict: a plain dst's elements the instruction writes, as its own hook
// finds them from the gathered inputs (tensor_copy_predicated's predicate).
void written_from_gathered(const Step& s, std::vector<uint8_t*>& out) { s.indirection->written(gathered(s), out); }

}  // namespace

void finish_tensor_indirection(const DecodeContext& c, Step& s, OperandSlot dst, std::initializer_list<OperandSlot> inputs,
                               IndirectDst how) {
  IndirectStreams k;
  k.gathers_dst = how.read;
  k.final_dst = how.final;
  bool any = false;
  int j = 0;
  auto take = [&](OperandSlot slot, const TileAccess*& streamed) {
    const TensorView& v = c.operand(slot).view;
    if (v.indirect == IndirectKind::tensor) {
      any = true;
      k.staging[j] = streamed;
      k.view[j] = indirect_start_tile(c, slot);
      k.side[j] = tensor_indirection(c, v, executing_engine(c.instruction_spec, c.instruction));
      k.columns[j] = v.pattern[1].num;
      streamed = k.view[j];
    }
    ++j;
  };
  take(dst, how.final ? s.final_dst : s.dst);
  for (const OperandSlot slot : inputs) take(slot, s.in[j - 1]);
  if (!any) return;
  if (how.final && k.side[1] != nullptr) s.dst = s.in[0];  // the streamed input, as the scheduler sees it
  k.inner = s.run;
  s.run = run_indirect_streams;
  k.check = s.strict != nullptr ? s.strict->check : nullptr;
  k.written = s.strict != nullptr ? s.strict->written_elements : nullptr;
  s.indirection = new (c.tiles.buffer(sizeof(IndirectStreams))) IndirectStreams(k);  // trivially destructible
  StrictHooks hooks = s.strict != nullptr ? *s.strict : StrictHooks{};
  if (k.side[0] != nullptr) hooks.written_elements = scattered_elements;
  else if (k.written != nullptr) hooks.written_elements = written_from_gathered;
  if (k.check != nullptr) hooks.check = check_gathered;
  s.strict = new (c.tiles.buffer(sizeof(StrictHooks))) StrictHooks(hooks);
}

}  // namespace nisa
