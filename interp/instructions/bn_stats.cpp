// bn_stats dst, data (Vector; S4.30, NKI 0.6 docstring): per partition, over
// data's flat free elements converted to float32, the statistics of the
// even-indexed elements, then of the odd-indexed ones: count, mean and
// variance * count. Two passes in float32, each a left-to-right sum starting
// from the first element of its half: mean = sum / count, then
// variance * count = sum of (x - mean)^2. An empty half (data of one
// element) gives 0, 0, 0.
#include "partition_values.hpp"
#include "instructions.hpp"

namespace nisa {
namespace {
namespace slot = spec_operand::bn_stats;

struct Params {
  float* values;  // one partition of data, float32 (TileTable memory)
};

// count, mean, variance * count of values[first], values[first + 2], ...
void half_statistics(const float* values, int64_t n, int64_t first, float* out) {
  if (first >= n) {
    out[0] = out[1] = out[2] = 0.0f;
    return;
  }
  float sum = values[first];
  for (int64_t i = first + 2; i < n; i += 2) sum += values[i];
  const auto count = static_cast<float>((n - first + 1) / 2);
  const float mean = sum / count;
  float d = values[first] - mean;
  float m2 = d * d;
  for (int64_t i = first + 2; i < n; i += 2) {
    d = values[i] - mean;
    m2 += d * d;
  }
  out[0] = count;
  out[1] = mean;
  out[2] = m2;
}

void run(const Step& s, Machine&) {
  const TileAccess& data = *s.in[0];
  float* values = s.params<Params>().values;
  float stats[6];
  for (int64_t p = 0; p < s.partitions; ++p) {
    load_partition(data, p, values);
    half_statistics(values, data.elements, 0, stats);
    half_statistics(values, data.elements, 1, stats + 3);
    store_partition(*s.dst, p, stats);
  }
}

void decode(const DecodeContext& c, Step& s) {
  const TileAccess* data = c.tile(slot::data);
  whole_partition_step(s, c.tile(slot::dst), {data});
  s.set_params(Params{scratch_floats(c.tiles, data->elements)});
  s.run = run;
}

}  // namespace

const InstructionSemantics bn_stats_semantics{decode};

}  // namespace nisa
