// rng dst, engine (Vector or GpSimd; S11.6, generators S11.5): 32 random bits per element from
// the lane's XORWOW generators (lane = physical partition), elements in
// row-major order, each truncated to dst's integer dtype (least significant
// bits: the low bytes, little-endian).
#include <cstring>

#include "instructions.hpp"

namespace nisa {
namespace {
namespace slot = spec_operand::rng;

template <bool kVector>
void run(const Step& s, Machine& m) {
  const TileAccess& dst = *s.dst;
  const auto size = static_cast<std::size_t>(dst.element_size);
  for (int64_t p = 0; p < s.partitions; ++p) {
    const auto lane = static_cast<std::size_t>(dst.first_partition + p);
    for (int64_t i = 0; i < s.elements; ++i) {
      const uint32_t bits = kVector ? draw_bits(m.vector_rng[lane], i) : draw_bits(m.gpsimd_rng[lane], i);
      std::memcpy(element_address(dst, p, i), &bits, size);  // x86-64: little-endian low bytes
    }
  }
}

void decode(const DecodeContext& c, Step& s) {
  stream_tiles(c, s, c.tile(slot::dst), {});
  s.run = c.enum_value<spec_enum::engine>(slot::engine) == spec_enum::engine::gpsimd ? run<false> : run<true>;
}

}  // namespace

const InstructionSemantics rng_semantics{decode};

}  // namespace nisa
