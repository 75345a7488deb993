// topk val_dst, idx_dst, src, n[, sorted] (GpSimd; S4.36): the partitions
// form groups of 16 (one GpSimd core each); a group's src holds a snake of n
// elements, element e at partition e % 16, column e / 16. Its K largest
// (K = val_dst's elements per partition; NaN ranks above +inf, and of equal
// values the lower index ranks higher, select8.hpp) and their snake indices
// are written in the form of the program's NKI version (`.nki`):
// - NKI 0.6 (docstring): in ascending order, on each of the group's 16
//   partitions (the model's reading of "for each partition");
// - NKI 0.7 (https://awsdocs-neuron.readthedocs-hosted.com/en/v2.33.0/nki/api/generated/nki.isa.topk.html):
//   in the input's snake layout, result j at partition j % 16, column j / 16;
//   sorted: largest first, else (order left open by the doc) in snake-index
//   order. The doc's hardware writes whole columns: the last one's slots past
//   K get zero bits (the model's choice); later columns are left unchanged.
#include <algorithm>

#include "partition_values.hpp"
#include "select8.hpp"
#include "instructions.hpp"

namespace nisa {
namespace {
namespace slot = spec_operand::topk;

constexpr int64_t kGroup = 16;  // partitions per GpSimd core

struct Params {
  int64_t n;
  bool snake_results;  // NKI 0.7's layout
  bool sorted;         // NKI 0.7: largest first (else snake-index order)
  float* values;     // a group's 16 partitions of src, float32 (TileTable memory)
  int64_t* order;    // snake indices 0..n-1, ranked
  float* top;        // K values, ascending
  uint32_t* index;   // their snake indices
};

// NKI 0.7: partition q of the group gets results q, q + 16, ... in its first
// ceil(K / 16) columns (zero where j >= K); its other columns keep their values.
template <class At>
void write_snake(const TileAccess& val_dst, const TileAccess& idx_dst, int64_t group, int64_t count, const Params& k, At at) {
  const int64_t columns = (count + kGroup - 1) / kGroup;
  for (int64_t q = 0; q < kGroup; ++q) {
    const int64_t p = group * kGroup + q;
    load_partition(val_dst, p, k.top);
    load_partition_bits(idx_dst, p, k.index);
    for (int64_t c = 0; c < columns; ++c) {
      const int64_t j = c * kGroup + q;
      k.top[c] = j < count ? at(k.order[j]) : 0.0f;
      k.index[c] = j < count ? static_cast<uint32_t>(k.order[j]) : 0u;
    }
    store_partition(val_dst, p, k.top);
    store_partition_bits(idx_dst, p, k.index);
  }
}

void run(const Step& s, Machine&) {
  const Params& k = s.params<Params>();
  const TileAccess& src = *s.in[0];
  const TileAccess& val_dst = *s.dst;
  const TileAccess& idx_dst = *s.reduce_res;
  const int64_t columns = src.elements, count = val_dst.elements;
  for (int64_t group = 0; group < s.partitions / kGroup; ++group) {
    for (int64_t q = 0; q < kGroup; ++q) load_partition(src, group * kGroup + q, k.values + q * columns);
    auto at = [&](int64_t e) { return k.values[(e % kGroup) * columns + e / kGroup]; };
    for (int64_t e = 0; e < k.n; ++e) k.order[e] = e;
    std::partial_sort(k.order, k.order + count, k.order + k.n, [&](int64_t a, int64_t b) {
      const float x = at(a), y = at(b);
      if (ranks_above(x, y)) return true;
      if (ranks_above(y, x)) return false;
      return a < b;
    });
    if (!k.snake_results) {
      for (int64_t j = 0; j < count; ++j) {  // ascending: the K-th largest first
        const int64_t e = k.order[count - 1 - j];
        k.top[j] = at(e);
        k.index[j] = static_cast<uint32_t>(e);
      }
      for (int64_t q = 0; q < kGroup; ++q) {
        store_partition(val_dst, group * kGroup + q, k.top);
        store_partition_bits(idx_dst, group * kGroup + q, k.index);
      }
      continue;
    }
    if (!k.sorted) std::sort(k.order, k.order + count);
    write_snake(val_dst, idx_dst, group, count, k, at);
  }
}

void decode(const DecodeContext& c, Step& s) {
  const TileAccess* src = c.tile(slot::src);
  whole_partition_step(s, c.tile(slot::val_dst), {src});  // partitions: a multiple of 16 (checked)
  // The step's second result tile is reduce_res (no accumulator is involved):
  // --strict marks it written like any reduce_res.
  s.reduce_res = c.tile(slot::idx_dst);
  const int64_t n = c.integer(slot::n), count = s.dst->elements;
  // NKI 0.7's form (S4.36): the program's NKI version is at least the sorted operand's.
  const bool snake_results = c.program.nki >= c.instruction_spec.operands[slot::sorted.index].since_nki;
  s.set_params(Params{n, snake_results, c.boolean(slot::sorted), scratch_floats(c.tiles, kGroup * src->elements),
                      reinterpret_cast<int64_t*>(c.tiles.buffer(static_cast<std::size_t>(n) * sizeof(int64_t))),
                      scratch_floats(c.tiles, count), reinterpret_cast<uint32_t*>(scratch_floats(c.tiles, count))});
  s.run = run;
}

}  // namespace

const InstructionSemantics topk_semantics{decode};

}  // namespace nisa
