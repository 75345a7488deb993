// The engines' pseudo random number generators (S11.5): XORWOW (Marsaglia
// 2003, the generator NKI 0.6's rand2/rand_set_state docstrings name), one
// state of 6 uint32 words [x, y, z, w, v, d] per generator. GpSimd has one
// generator per lane (6 words, rand_get_state's GpSimd size), Vector four
// (24 words); lane = physical partition. Seeding expands a 32-bit seed with
// SplitMix64 so that every lane and generator starts differently.
#pragma once
#include <array>
#include <cstdint>

namespace nisa {

inline constexpr int kRngWords = 6;           // one XORWOW state
inline constexpr int kVectorGenerators = 4;   // per Vector lane: 24 state words
inline constexpr int kGpsimdGenerators = 1;   // per GpSimd lane: 6 state words

using XorwowState = std::array<uint32_t, kRngWords>;

// One XORWOW step: advances the state and returns its 32-bit output.
inline uint32_t xorwow_next(XorwowState& s) {
  uint32_t t = s[0] ^ (s[0] >> 2);
  s[0] = s[1];
  s[1] = s[2];
  s[2] = s[3];
  s[3] = s[4];
  s[4] = (s[4] ^ (s[4] << 4)) ^ (t ^ (t << 1));
  s[5] += 362437u;
  return s[5] + s[4];
}

// The state set_rng_seed(seed) gives generator `generator` of lane `lane` of
// an engine with `per_lane` generators: six SplitMix64 outputs (low 32 bits)
// from (seed << 32) | (lane * per_lane + generator).
XorwowState seeded_state(uint32_t seed, int lane, int per_lane, int generator);

// Bits -> float32 in [0, 1): the high 24 bits times 2^-24 (exact).
inline float unit_float(uint32_t bits) { return static_cast<float>(bits >> 8) * 0x1p-24f; }

}  // namespace nisa

namespace nisa {

// The 32 bits of flat element i of a partition, drawn from its lane's
// generators: Vector element i uses generator i mod 4, GpSimd its only one.
template <std::size_t kGenerators>
inline uint32_t draw_bits(std::array<XorwowState, kGenerators>& lane, int64_t i) {
  return xorwow_next(lane[static_cast<std::size_t>(i) % kGenerators]);
}

}  // namespace nisa
