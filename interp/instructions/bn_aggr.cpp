// bn_aggr dst, data (Vector; S4.31, NKI 0.6 docstring): per partition, data
// holds (count, mean, variance * count) triples (bn_stats results), read as
// float32 and combined left to right by Chan et al.'s pairwise update, all
// in float32:
//   total = n + nb; delta = mb - mean; w = nb / total
//   mean += delta * w; m2 = (m2 + m2b) + (delta * delta) * (n * w); n = total
// The first triple of nonzero count starts the combination; triples of count
// 0 are skipped. dst = mean, m2 / n (the biased variance); 0, 0 when every
// count is 0.
#include "partition_values.hpp"
#include "instructions.hpp"

namespace nisa {
namespace {
namespace slot = spec_operand::bn_aggr;

struct Params {
  float* values;  // one partition of data, float32 (TileTable memory)
};

void run(const Step& s, Machine&) {
  const TileAccess& data = *s.in[0];
  float* values = s.params<Params>().values;
  for (int64_t p = 0; p < s.partitions; ++p) {
    load_partition(data, p, values);
    float n = 0.0f, mean = 0.0f, m2 = 0.0f;
    for (int64_t t = 0; t + 3 <= data.elements; t += 3) {
      const float nb = values[t], mb = values[t + 1], m2b = values[t + 2];
      if (nb == 0.0f) continue;
      if (n == 0.0f) {
        n = nb, mean = mb, m2 = m2b;
        continue;
      }
      const float total = n + nb;
      const float delta = mb - mean;
      const float w = nb / total;
      mean += delta * w;
      m2 = (m2 + m2b) + (delta * delta) * (n * w);
      n = total;
    }
    const float out[2] = {mean, n == 0.0f ? 0.0f : m2 / n};
    store_partition(*s.dst, p, out);
  }
}

void decode(const DecodeContext& c, Step& s) {
  const TileAccess* data = c.tile(slot::data);
  whole_partition_step(s, c.tile(slot::dst), {data});
  s.set_params(Params{scratch_floats(c.tiles, data->elements)});
  s.run = run;
}

}  // namespace

const InstructionSemantics bn_aggr_semantics{decode};

}  // namespace nisa
