// NKI 0.6's affine pattern, shared by iota (S4.8) and affine_select (S4.21):
// value(p, i) = offset + p*channel_multiplier + sum_k ik*stepk over
// pattern=[[step0, num0], ...], the flat free index i read as a row-major
// index of the pattern (last entry innermost), in int32 arithmetic
// (wrapping, as a 32-bit integer unit does).
#pragma once
#include <cstdint>

#include "decode_context.hpp"

namespace nisa {

// The [step, num] entries, last innermost, padded in front with [0, 1].
struct AffinePattern {
  int32_t step[4];
  int32_t num[4];
  int64_t offset, channel_multiplier;
};

// The int32 value at partition p (of the tile), flat free index i.
inline int32_t affine_value(const AffinePattern& k, int64_t p, int64_t i) {
  // |terms| < 2^31 * 2^24 each: the int64 sum is exact; int32 wraps it.
  int64_t v = k.offset + p * k.channel_multiplier;
  for (int e = 3; e >= 0; --e) {
    v += (i % k.num[e]) * k.step[e];
    i /= k.num[e];
  }
  return static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(v)));
}

// From the instruction's `pattern`, `offset` and `channel_multiplier`
// operands (each absent one is 0; the spec checked the entries' ranges).
AffinePattern decode_affine_pattern(const DecodeContext& c, OperandSlot pattern, OperandSlot offset,
                                    OperandSlot channel_multiplier);

}  // namespace nisa
