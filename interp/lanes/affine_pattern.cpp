#include "affine_pattern.hpp"

namespace nisa {

AffinePattern decode_affine_pattern(const DecodeContext& c, OperandSlot pattern, OperandSlot offset,
                                    OperandSlot channel_multiplier) {
  const std::vector<int32_t>& entries = c.operand(pattern).list;  // [step, num] pairs
  const std::size_t count = entries.size() / 2;                   // 1..4 (spec)
  AffinePattern k{{0, 0, 0, 0}, {1, 1, 1, 1}, 0, 0};
  for (std::size_t e = 0; e < count; ++e) {
    const std::size_t at = 4 - count + e;
    k.step[at] = entries[2 * e];
    k.num[at] = entries[2 * e + 1];
  }
  k.offset = c.present(offset) ? c.integer(offset) : 0;
  k.channel_multiplier = c.present(channel_multiplier) ? c.integer(channel_multiplier) : 0;
  return k;
}

}  // namespace nisa
