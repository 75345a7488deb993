// iota (LANGUAGE.md 2.4, S7), two forms that share one spec entry:
// - NKI 0.6: dst[p, i0, i1, ...] = offset + p*channel_multiplier + sum_k ik*stepk
//   over pattern=[[step0, num0], ...] (the dst's flat free index read as a
//   row-major index of the pattern), computed in int32 arithmetic (wrapping,
//   as a 32-bit integer unit does), then converted to dst's dtype: integers
//   saturated (S2.3), floats through float32 (S2.2).
// - earlier: dst[p, i] = base + p*partition_step + i*free_step, p the tile's
//   partition, i the flat free index. Integer tiles with integer parameters:
//   exact int64 arithmetic, then saturated (S2.3); otherwise computed in double
//   and rounded once to float32 before the dst conversion (S2.2).
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

// The int32 value of the NKI 0.6 form at partition p, flat free index i.
inline int32_t pattern_value(const Step& s, int64_t p, int64_t i) {
  // |terms| < 2^31 * 2^24 each: the int64 sum is exact; int32 wraps it.
  int64_t v = s.int0 + p * s.int1;
  for (int k = 3; k >= 0; --k) {
    v += (i % s.pattern_num[k]) * s.pattern_step[k];
    i /= s.pattern_num[k];
  }
  return static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(v)));
}

template <class E>
void run_pattern(const Step& s, Machine&) {
  using S = typename E::storage;
  for (int64_t p = 0; p < s.partitions; ++p)
    for (int64_t r = 0; r < s.rows(); ++r) {
      uint8_t* row = s.dst->partition(p) + s.dst->row_offsets[static_cast<std::size_t>(r)];
      for (int64_t j = 0; j < s.row_length; ++j) {
        // from_i64: saturating for integer dtypes, through float32 for float ones.
        const S v = E::from_i64(pattern_value(s, p, r * s.row_length + j));
        std::memcpy(row + j * s.dst->element_stride, &v, sizeof(S));
      }
    }
}

void decode_pattern_form(const DecodeContext& c, Step& s) {
  const std::vector<int32_t>& pattern = c.operand("pattern").list;  // [step, num] entries
  const std::size_t entries = pattern.size() / 2;                   // 1..4 (spec)
  for (std::size_t e = 0; e < entries; ++e) {
    const std::size_t k = 4 - entries + e;
    s.pattern_step[k] = pattern[2 * e];
    s.pattern_num[k] = pattern[2 * e + 1];
  }
  s.int0 = c.present("offset") ? c.integer("offset") : 0;
  s.int1 = c.present("channel_multiplier") ? c.integer("channel_multiplier") : 0;
  s.run = dispatch_dtype(s.dst->dtype, [&](auto e) -> Kernel { return &run_pattern<decltype(e)>; });
}

}  // namespace

void decode_iota(const DecodeContext& c, Step& s) {
  stream_tiles(c, s, c.tile("dst"), {});
  if (c.present("pattern")) return decode_pattern_form(c, s);
  s.num0 = c.present("base") ? c.number("base") : 0;
  s.num1 = c.present("partition_step") ? c.number("partition_step") : 0;
  s.num2 = c.present("free_step") ? c.number("free_step") : 1;
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
