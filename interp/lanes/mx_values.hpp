// The values inside the MX element types (S13, OCP Microscaling v1.0 as NKI
// 0.6 uses it): a packed element holds four values, value j in byte j of an
// fp8 _x4 element and in bits 4j..4j+3 of an fp4 _x4 element (little-endian:
// a [P, F] _x4 tile is the [P, 4F] value matrix, value 4f+j of a row in
// element f). An e8m0 scale byte e means 2^(e-127); 0xFF is NaN.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "numbers.hpp"

namespace nisa {

// Value j (0..3) of the packed element at `element` as float32 (exact).
inline float mx_packed_value(Dtype t, const uint8_t* element, int j) {
  switch (t) {
    case Dtype::fp8e4m3fn_x4: return Element<Dtype::fp8e4m3fn>::to_f32(element[j]);
    case Dtype::fp8e5m2_x4: return Element<Dtype::fp8e5m2>::to_f32(element[j]);
    case Dtype::fp4e2m1fn_x4: {
      // e2m1: sign, 2 exponent bits (bias 1), 1 mantissa bit; no inf/NaN.
      static constexpr float kMagnitude[8] = {0.0f, 0.5f, 1.0f, 1.5f, 2.0f, 3.0f, 4.0f, 6.0f};
      uint16_t bits;
      std::memcpy(&bits, element, 2);
      const unsigned nibble = (bits >> (4 * j)) & 0xFu;
      const float v = kMagnitude[nibble & 7u];
      return (nibble & 8u) ? -v : v;
    }
    default: return std::numeric_limits<float>::quiet_NaN();  // the spec admits only the packed types here
  }
}

// value * 2^(e-127) rounded once to float32 (e = 0xFF: NaN).
inline float mx_scaled(float value, uint8_t e) {
  if (e == 0xFF) return std::numeric_limits<float>::quiet_NaN();
  return static_cast<float>(std::ldexp(static_cast<double>(value), static_cast<int>(e) - 127));
}

// The partition of the scale tile that holds the scales of data partitions
// 8b..8b+7 (NKI 0.6, nki-samples mx_cpu_utils.get_p_contiguous_scale): the
// four groups of each 32-partition quadrant q sit in partitions 32q..32q+3.
inline int64_t mx_scale_partition(int64_t group_row) { return group_row / 4 * 32 + group_row % 4; }

}  // namespace nisa
