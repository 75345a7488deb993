// sequence_bounds dst, segment_ids (GpSimd; S4.35, NKI 0.6 docstring and its
// unit test's golden formula): on one partition of n segment IDs, element i
// gets start[i] and end[i]; dst holds the n starts, then the n ends.
//   start[i] = n if id[i] == 0 (padding); start[i-1] if i > 0 and
//              id[i] == id[i-1]; else i
//   end[i]   = -1 if id[i] == 0; end[i+1] if i < n-1 and id[i] == id[i+1];
//              else i + 1
// IDs compare in their dtype (float32: -0.0 is padding, NaN equals nothing);
// bounds are written exactly to an int32 dst, as float32 to a float32 one.
#include <cstring>

#include "partition_values.hpp"
#include "instructions.hpp"

namespace nisa {
namespace {
namespace slot = spec_operand::sequence_bounds;

struct Params {
  uint32_t* ids;     // the segment IDs' bits, then the 2n bounds as dst bits (TileTable memory)
  int64_t* bounds;   // n starts, then n ends (TileTable memory)
  bool float_ids;    // segment_ids is float32 (else int32)
  bool float_dst;
};

bool same_id(uint32_t a, uint32_t b, bool float_ids) {
  if (!float_ids) return a == b;
  float x, y;
  std::memcpy(&x, &a, 4);
  std::memcpy(&y, &b, 4);
  return x == y;
}

void run(const Step& s, Machine&) {
  const Params& k = s.params<Params>();
  const int64_t n = s.elements;
  uint32_t* ids = k.ids;
  uint32_t* bounds = ids + n;
  load_partition_bits(*s.in[0], 0, ids);
  auto padding = [&](int64_t i) { return same_id(ids[i], 0u, k.float_ids); };
  auto put = [&](int64_t slot_index, int64_t value) {
    if (k.float_dst) {
      const auto f = static_cast<float>(value);
      std::memcpy(&bounds[slot_index], &f, 4);
    } else {
      bounds[slot_index] = static_cast<uint32_t>(static_cast<int32_t>(value));
    }
  };
  int64_t* start = k.bounds;
  int64_t* end = k.bounds + n;
  for (int64_t i = 0; i < n; ++i) start[i] = padding(i) ? n : (i > 0 && same_id(ids[i], ids[i - 1], k.float_ids)) ? start[i - 1] : i;
  for (int64_t i = n - 1; i >= 0; --i) end[i] = padding(i) ? -1 : (i < n - 1 && same_id(ids[i], ids[i + 1], k.float_ids)) ? end[i + 1] : i + 1;
  for (int64_t i = 0; i < 2 * n; ++i) put(i, k.bounds[i]);
  store_partition_bits(*s.dst, 0, bounds);
}

void decode(const DecodeContext& c, Step& s) {
  const TileAccess* ids = c.tile(slot::segment_ids);
  s.dst = c.tile(slot::dst);
  s.in[0] = ids;
  s.inputs = 1;
  s.partitions = ids->partitions;  // 1 (checked)
  s.elements = ids->elements;
  s.row_length = 0;  // one whole partition (partition_values.hpp), not the lane loop
  const auto n = static_cast<std::size_t>(ids->elements);
  s.set_params(Params{reinterpret_cast<uint32_t*>(c.tiles.buffer(3 * n * sizeof(uint32_t))),
                      reinterpret_cast<int64_t*>(c.tiles.buffer(2 * n * sizeof(int64_t))), ids->dtype == Dtype::f32,
                      s.dst->dtype == Dtype::f32});
  s.run = run;
}

}  // namespace

const InstructionSemantics sequence_bounds_semantics{decode};

}  // namespace nisa
