// iota dst, base, partition_step, free_step (LANGUAGE.md 2.4):
// dst[p, i] = base + p*partition_step + i*free_step, p the tile's partition,
// i the flat free index. Integer tiles with integer parameters: exact int64
// arithmetic, then saturated (S2.3); otherwise computed in double and rounded
// once to float32 before the dst conversion (S2.2).
#include <cmath>
#include <cstring>

#include "instructions.hpp"
#include "numbers.hpp"

namespace nisa {
namespace {

template <class E, bool kInteger>
void run(const Step& s, Machine&) {
  using S = typename E::storage;
  for (int64_t p = 0; p < s.partitions; ++p)
    for (int64_t r = 0; r < s.rows(); ++r) {
      uint8_t* row = s.dst->partition(p) + s.dst->row_offsets[static_cast<std::size_t>(r)];
      for (int64_t j = 0; j < s.row_length; ++j) {
        const int64_t i = r * s.row_length + j;
        S v;
        if constexpr (kInteger) {
          v = E::from_i64(s.int0 + p * s.int1 + i * s.int2);
        } else {
          v = E::from_f32(static_cast<float>(s.num0 + static_cast<double>(p) * s.num1 + static_cast<double>(i) * s.num2));
        }
        std::memcpy(row + j * s.dst->element_stride, &v, sizeof(S));
      }
    }
}

}  // namespace

void decode_iota(const DecodeContext& c, Step& s) {
  stream_tiles(c, s, c.tile("dst"), {});
  s.num0 = c.number("base");
  s.num1 = c.number("partition_step");
  s.num2 = c.number("free_step");
  auto whole = [](double x) { return std::floor(x) == x && std::fabs(x) < 0x1p53; };
  const bool integer = dtype_is_int(s.dst->dtype) && whole(s.num0) && whole(s.num1) && whole(s.num2);
  s.int0 = integer ? static_cast<int64_t>(s.num0) : 0;
  s.int1 = integer ? static_cast<int64_t>(s.num1) : 0;
  s.int2 = integer ? static_cast<int64_t>(s.num2) : 0;
  s.run = dispatch_dtype(s.dst->dtype, [&](auto e) -> Kernel {
    return integer ? &run<decltype(e), true> : &run<decltype(e), false>;
  });
}

}  // namespace nisa
