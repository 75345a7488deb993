// rand2 dst, min, max (Vector; S11.7, generators S11.5): per element, 32 bits b from the
// lane's Vector XORWOW generators (as rng draws them), u = (b >> 8) * 2^-24
// in [0, 1), then min + (max - min) * u in float32 (each operation rounded),
// converted to dst's dtype (S2.2, S2.3).
#include "instructions.hpp"

namespace nisa {
namespace {
namespace slot = spec_operand::rand2;

void run(const Step& s, Machine& m) {
  const TileAccess& dst = *s.dst;
  for (int64_t p = 0; p < s.partitions; ++p) {
    const auto lane = static_cast<std::size_t>(dst.first_partition + p);
    const float low = s.scalar[0].at(p);
    const float range = s.scalar[1].at(p) - low;
    for (int64_t i = 0; i < s.elements; ++i) {
      const float v = low + range * unit_float(draw_bits(m.vector_rng[lane], i));
      dst.store(element_address(dst, p, i), dst.element_stride, 1, &v);
    }
  }
}

void decode(const DecodeContext& c, Step& s) {
  stream_tiles(c, s, c.tile(slot::dst), {});
  s.scalar[0] = c.partition_scalar(slot::min, 0.0f);
  s.scalar[1] = c.partition_scalar(slot::max, 1.0f);
  s.run = run;
}

}  // namespace

const InstructionSemantics rand2_semantics{decode};

}  // namespace nisa
