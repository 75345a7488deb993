// dma_compute dst, srcs=[a, b, ...] (NKI 0.6; docs/SEMANTICS.md S12.1): the
// DMA engine's compute, dst = srcs[0] + srcs[1] + ... element for element in
// float32 (every src converted to float32 first, the sum, left to right,
// converted to dst's dtype; scales are all 1). A vector_offset/scalar_offset
// view makes it a read-modify-write (scatter: dst and one src the same HBM
// view with indices; gather: one src an HBM view with indices, the other
// dst): the runtime index is bounded as dma_copy's (indirect_access.hpp).
// Partitions are computed in order, one row at a time, so a src that is dst
// reads the values it had before this row was written.
#include <span>
#include <vector>

#include "indirect_access.hpp"
#include "instructions.hpp"

namespace nisa {
namespace {
namespace slot = spec_operand::dma_compute;

struct Params {
  const TileAccess* const* srcs;       // every src, in rows of the step's row_length
  const IndirectSide* const* src_side;  // per src: nullptr for a static view
  const IndirectSide* dst_side;
  float* sum;                           // row_length floats: the running sum
  float* term;                          // row_length floats: the src being added
  int count;
  bool skip;                            // oob_mode=skip
  bool per_partition;                   // some index is one per partition (vector_offset)
};

constexpr int kMaxSrcs = 16;  // the spec's max_count

// Partition p's byte shifts of dst and of each src (from their indices), or,
// when an index takes a side outside its tensor, that side (`outside`, with
// its index): the partition is not computed.
struct PartitionShifts {
  int64_t dst = 0;
  int64_t src[kMaxSrcs] = {};
  const IndirectSide* outside = nullptr;
  int64_t index = 0;
};

PartitionShifts partition_shifts(const Params& k, int64_t p) {
  PartitionShifts m;
  if (!shift_of(k.dst_side, p, m.dst, m.index)) {
    m.outside = k.dst_side;
    return m;
  }
  for (int j = 0; j < k.count; ++j)
    if (!shift_of(k.src_side[j], p, m.src[j], m.index)) {
      m.outside = k.src_side[j];
      return m;
    }
  return m;
}

void run(const Step& s, Machine&) {
  const Params& k = s.params<Params>();
  const int64_t n = s.row_length;
  for (int64_t p = 0; p < s.partitions; ++p) {
    const PartitionShifts m = partition_shifts(k, p);
    if (m.outside) {
      if (!k.skip) out_of_bounds(*m.outside, p, m.index);
      if (!k.per_partition) return;  // a scalar index moves the whole view: all of it is skipped
      continue;
    }
    const int64_t* shift = m.src;
    const int64_t dst_shift = m.dst;
    for (int64_t r = 0; r < s.rows(); ++r) {
      for (int j = 0; j < k.count; ++j) {
        const TileAccess& t = *k.srcs[j];
        float* into = j == 0 ? k.sum : k.term;
        t.load(t.partition(p) + shift[j] + t.row_offsets[static_cast<std::size_t>(r)], t.element_stride, n, into);
        if (j > 0)
          for (int64_t e = 0; e < n; ++e) k.sum[e] += k.term[e];
      }
      s.dst->store(s.dst->partition(p) + dst_shift + s.dst->row_offsets[static_cast<std::size_t>(r)], s.dst->element_stride, n, k.sum);
    }
  }
}

// --strict's HBM race check (S16.5): every src read and dst written, at the
// rows their indices (as they are before the step runs) give; a src beyond
// in[]'s three is only in the parameters.
bool tile_uses(const Step& s, std::vector<TileUse>& out) {
  const Params& k = s.params<Params>();
  const auto partitions = static_cast<std::size_t>(s.partitions);
  const std::size_t first = out.size();
  for (int j = 0; j < k.count; ++j) out.push_back(TileUse{k.srcs[j], false, 1, false, std::vector<int64_t>(partitions, TileUse::kUntouched)});
  out.push_back(TileUse{s.dst, true, 1, false, std::vector<int64_t>(partitions, TileUse::kUntouched)});
  for (int64_t p = 0; p < s.partitions; ++p) {
    const PartitionShifts m = partition_shifts(k, p);
    if (m.outside) {
      if (!k.skip || !k.per_partition) break;  // the run faults here, or computes nothing
      continue;
    }
    const auto at = static_cast<std::size_t>(p);
    for (int j = 0; j < k.count; ++j) out[first + static_cast<std::size_t>(j)].shift[at] = m.src[j];
    out[first + static_cast<std::size_t>(k.count)].shift[at] = m.dst;
  }
  return true;
}

void decode(const DecodeContext& c, Step& s) {
  const TensorView& dst = c.operand(slot::dst).view;
  const std::vector<TensorView>& views = c.operand(slot::srcs).views;
  const int count = static_cast<int>(views.size());  // 1..16 (program check)
  std::vector<const TileAccess*> all{c.tile(slot::dst)};
  for (const TensorView& v : views) all.push_back(c.tiles.view(v));
  s.row_length = common_row_length(std::span(all.data(), all.size()));
  s.partitions = all[0]->partitions;
  s.elements = all[0]->elements;
  s.dst = c.tiles.with_rows(all[0], s.row_length);
  s.inputs = 0;
  auto* srcs = reinterpret_cast<const TileAccess**>(c.tiles.buffer(sizeof(const TileAccess*) * static_cast<std::size_t>(count)));
  auto* sides = reinterpret_cast<const IndirectSide**>(c.tiles.buffer(sizeof(const IndirectSide*) * static_cast<std::size_t>(count)));
  Params k{};
  k.dst_side = indirect_side(c, dst);
  k.per_partition = dst.indirect == IndirectKind::vector;
  for (int j = 0; j < count; ++j) {
    srcs[j] = c.tiles.with_rows(all[static_cast<std::size_t>(j) + 1], s.row_length);
    sides[j] = indirect_side(c, views[static_cast<std::size_t>(j)]);
    k.per_partition = k.per_partition || views[static_cast<std::size_t>(j)].indirect == IndirectKind::vector;
    // --strict (S1.1) checks the reads of the step's inputs: the first three static srcs.
    if (!sides[j] && s.inputs < 3) s.in[s.inputs++] = srcs[j];
  }
  const auto row_bytes = sizeof(float) * static_cast<std::size_t>(s.row_length);
  k.srcs = srcs;
  k.src_side = sides;
  k.sum = reinterpret_cast<float*>(c.tiles.buffer(row_bytes));
  k.term = reinterpret_cast<float*>(c.tiles.buffer(row_bytes));
  k.count = count;
  k.skip = c.enum_value<spec_enum::oob_mode>(slot::oob_mode) == spec_enum::oob_mode::skip;
  s.set_params(k);
  s.run = run;
}

}  // namespace

const InstructionSemantics dma_compute_semantics{decode, {.tile_uses = tile_uses}};

}  // namespace nisa
