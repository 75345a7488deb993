// nc_match_replace8 dst, data, vals, imm, dst_idx (Vector; S4.34, NKI 0.6
// docstring): per partition, for vals[7], vals[6], ..., vals[0] in turn (the
// docstring's order): the first element of data that equals it (as float32;
// NaN matches NaN) and was not matched by a later val is replaced by imm;
// its flat index goes to dst_idx[j] (all ones when there is none). dst is
// data in float32 with those replacements, converted to dst's dtype.
#include "partition_values.hpp"
#include "select8.hpp"
#include "instructions.hpp"

namespace nisa {
namespace {
namespace slot = spec_operand::nc_match_replace8;

struct Params {
  float* values;  // one partition of data, then the 8 vals, float32 (TileTable memory)
  float imm;
};

void run(const Step& s, Machine&) {
  const TileAccess& data = *s.in[0];
  const TileAccess& vals = *s.in[1];
  const Params& k = s.params<Params>();
  float* values = k.values;
  float* wanted = values + data.elements;
  for (int64_t p = 0; p < s.partitions; ++p) {
    load_partition(data, p, values);
    load_partition(vals, p, wanted);
    static constexpr int kReversed[kSelect8] = {7, 6, 5, 4, 3, 2, 1, 0};  // NKI's order
    int64_t position[kSelect8];
    pair_matches(values, data.elements, wanted, kReversed, position);
    uint32_t index[kSelect8];
    for (int j = 0; j < kSelect8; ++j) {
      index[j] = position[j] < 0 ? kNotFound : static_cast<uint32_t>(position[j]);
      if (position[j] >= 0) values[position[j]] = k.imm;
    }
    store_partition(*s.dst, p, values);
    if (s.reduce_res != nullptr) store_partition_bits(*s.reduce_res, p, index);
  }
}

void decode(const DecodeContext& c, Step& s) {
  const TileAccess* data = c.tile(slot::data);
  whole_partition_step(s, c.tile(slot::dst), {data, c.tile(slot::vals)});
  // The step's second result tile is reduce_res (no accumulator is involved):
  // --strict marks it written like any reduce_res.
  if (c.is_tile(slot::dst_idx)) s.reduce_res = c.tile(slot::dst_idx);
  s.set_params(Params{scratch_floats(c.tiles, data->elements + kSelect8), c.scalar(slot::imm)});
  s.run = run;
}

}  // namespace

const InstructionSemantics nc_match_replace8_semantics{decode};

}  // namespace nisa
