// max8 dst, src (Vector; S4.32, NKI 0.6 docstring): per partition, the 8
// largest of src's elements as float32, in descending order, converted to
// dst's dtype. NaN ranks above +inf; equal values (-0.0 and +0.0 too) keep
// the order in which they occur in src (select8.hpp).
#include "partition_values.hpp"
#include "select8.hpp"
#include "instructions.hpp"

namespace nisa {
namespace {
namespace slot = spec_operand::max8;

struct Params {
  float* values;  // one partition of src, float32 (TileTable memory)
};

void run(const Step& s, Machine&) {
  const TileAccess& src = *s.in[0];
  float* values = s.params<Params>().values;
  for (int64_t p = 0; p < s.partitions; ++p) {
    load_partition(src, p, values);
    // Insertion into the best 8 so far: a new value goes after every value
    // it does not rank above, so ties keep their order of occurrence.
    float top[kSelect8];
    int kept = 0;
    for (int64_t i = 0; i < src.elements; ++i) {
      int at = kept;
      while (at > 0 && ranks_above(values[i], top[at - 1])) --at;
      if (at >= kSelect8) continue;
      for (int j = (kept < kSelect8 ? kept : kSelect8 - 1); j > at; --j) top[j] = top[j - 1];
      top[at] = values[i];
      if (kept < kSelect8) ++kept;
    }
    store_partition(*s.dst, p, top);  // kept == 8: src has at least 8 elements (checked)
  }
}

void decode(const DecodeContext& c, Step& s) {
  const TileAccess* src = c.tile(slot::src);
  whole_partition_step(s, c.tile(slot::dst), {src});
  s.set_params(Params{scratch_floats(c.tiles, src->elements)});
  s.run = run;
}

}  // namespace

const InstructionSemantics max8_semantics{decode};

}  // namespace nisa
