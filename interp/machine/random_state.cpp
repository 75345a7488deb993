#include "random_state.hpp"

namespace nisa {

XorwowState seeded_state(uint32_t seed, int lane, int per_lane, int generator) {
  uint64_t s = (uint64_t{seed} << 32) | static_cast<uint64_t>(lane * per_lane + generator);
  XorwowState state{};
  for (uint32_t& word : state) {
    s += 0x9E3779B97F4A7C15ull;  // SplitMix64 (Steele, Lea, Flood 2014)
    uint64_t z = s;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    word = static_cast<uint32_t>(z);
  }
  return state;
}

}  // namespace nisa
