// dropout dst, data, prob (Vector; S11.8, generators S11.5): per element, 32 bits b from the
// lane's Vector XORWOW generators (as rng draws them) and u = (b >> 8) *
// 2^-24 in [0, 1); the element is dropped (dst = 0, all bits zero) when
// u < prob, prob being the float32 drop probability of its partition, and
// kept otherwise (data's bits, unscaled). prob 0 keeps all, prob 1 drops all.
#include <cstring>

#include "instructions.hpp"

namespace nisa {
namespace {
namespace slot = spec_operand::dropout;

void run(const Step& s, Machine& m) {
  const TileAccess& dst = *s.dst;
  const TileAccess& data = *s.in[0];
  const auto size = static_cast<std::size_t>(dst.element_size);
  for (int64_t p = 0; p < s.partitions; ++p) {
    const auto lane = static_cast<std::size_t>(dst.first_partition + p);
    const float prob = s.scalar[0].at(p);
    for (int64_t r = 0; r < s.rows(); ++r) {
      uint8_t* out = dst.partition(p) + dst.row_offsets[static_cast<std::size_t>(r)];
      const uint8_t* in = data.partition(p) + data.row_offsets[static_cast<std::size_t>(r)];
      for (int64_t j = 0; j < s.row_length; ++j) {
        const bool drop = unit_float(draw_bits(m.vector_rng[lane], r * s.row_length + j)) < prob;
        if (drop)
          std::memset(out + j * dst.element_stride, 0, size);
        else
          std::memmove(out + j * dst.element_stride, in + j * data.element_stride, size);
      }
    }
  }
}

void decode(const DecodeContext& c, Step& s) {
  stream_tiles(c, s, c.tile(slot::dst), {c.tile(slot::data)});
  s.scalar[0] = c.partition_scalar(slot::prob, 0.0f);
  s.run = run;
}

}  // namespace

const InstructionSemantics dropout_semantics{decode};

}  // namespace nisa
