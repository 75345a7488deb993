// memset dst, value (LANGUAGE.md 2.4): every element = value converted to
// dst's dtype once (S2.2/S2.3; an integer value for an integer tile is exact).
#include <cstring>

#include "instructions.hpp"

namespace nisa {
namespace {

template <int64_t Size>
void run(const Step& s, Machine&) {
  uint8_t pattern[Size];
  std::memcpy(pattern, &s.bits, Size);  // little-endian host: the low bytes
  for (int64_t p = 0; p < s.partitions; ++p)
    for (int64_t r = 0; r < s.rows(); ++r) {
      uint8_t* row = s.dst->partition(p) + s.dst->row_offsets[static_cast<std::size_t>(r)];
      for (int64_t i = 0; i < s.row_length; ++i) std::memcpy(row + i * s.dst->element_stride, pattern, Size);
    }
}

}  // namespace

void decode_memset(const DecodeContext& c, Step& s) {
  stream_tiles(c, s, c.tile("dst"), {});
  s.bits = c.integer_valued("value") ? bits_from_i64(s.dst->dtype, c.integer("value"))
                                     : bits_from_f32(s.dst->dtype, c.scalar("value"));
  s.run = s.dst->element_size == 1 ? run<1> : s.dst->element_size == 2 ? run<2> : run<4>;
}

}  // namespace nisa
