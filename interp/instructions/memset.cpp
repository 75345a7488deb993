// memset dst, value (LANGUAGE.md 2.4): every element = value converted to
// dst's dtype once (S2.2/S2.3; an integer value for an integer tile is exact).
#include <cstring>

#include "instructions.hpp"

namespace nisa {
namespace {
namespace slot = spec_operand::memset;

struct Params {
  uint32_t bits;  // value as dst's bits
};

template <int64_t Size>
void run(const Step& s, Machine&) {
  uint8_t pattern[Size];
  std::memcpy(pattern, &s.params<Params>().bits, Size);  // little-endian host: the low bytes
  for (int64_t p = 0; p < s.partitions; ++p)
    for (int64_t r = 0; r < s.rows(); ++r) {
      uint8_t* row = s.dst->partition(p) + s.dst->row_offsets[static_cast<std::size_t>(r)];
      for (int64_t i = 0; i < s.row_length; ++i) std::memcpy(row + i * s.dst->element_stride, pattern, Size);
    }
}

void decode(const DecodeContext& c, Step& s) {
  stream_tiles(c, s, c.tile(slot::dst), {});
  s.set_params(Params{c.scalar_bits(slot::value, s.dst->dtype)});
  s.run = s.dst->element_size == 1 ? run<1> : s.dst->element_size == 2 ? run<2> : run<4>;
}

}  // namespace

const InstructionSemantics memset_semantics{decode};

}  // namespace nisa
