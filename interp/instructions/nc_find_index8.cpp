// nc_find_index8 dst, data, vals (Vector; S4.33, NKI 0.6 docstring): per
// partition, for vals[0], vals[1], ..., vals[7] in turn: the flat index of
// the first element of data that equals it (as float32; NaN matches NaN) and
// is not already the answer of an earlier val, so duplicate vals get their
// matches in ascending order. No such element: all ones (0xFFFFFFFF, or
// 0xFFFF in a uint16 dst).
#include "partition_values.hpp"
#include "select8.hpp"
#include "instructions.hpp"

namespace nisa {
namespace {
namespace slot = spec_operand::nc_find_index8;

struct Params {
  float* values;  // one partition of data, then the 8 vals, float32 (TileTable memory)
};

void run(const Step& s, Machine&) {
  const TileAccess& data = *s.in[0];
  const TileAccess& vals = *s.in[1];
  float* values = s.params<Params>().values;
  float* wanted = values + data.elements;
  for (int64_t p = 0; p < s.partitions; ++p) {
    load_partition(data, p, values);
    load_partition(vals, p, wanted);
    static constexpr int kInOrder[kSelect8] = {0, 1, 2, 3, 4, 5, 6, 7};
    int64_t position[kSelect8];
    pair_matches(values, data.elements, wanted, kInOrder, position);
    uint32_t index[kSelect8];
    for (int j = 0; j < kSelect8; ++j) index[j] = position[j] < 0 ? kNotFound : static_cast<uint32_t>(position[j]);
    store_partition_bits(*s.dst, p, index);
  }
}

void decode(const DecodeContext& c, Step& s) {
  const TileAccess* data = c.tile(slot::data);
  whole_partition_step(s, c.tile(slot::dst), {data, c.tile(slot::vals)});
  s.set_params(Params{scratch_floats(c.tiles, data->elements + kSelect8)});
  s.run = run;
}

}  // namespace

const InstructionSemantics nc_find_index8_semantics{decode};

}  // namespace nisa
