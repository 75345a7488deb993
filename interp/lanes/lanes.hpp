// Conversion between memory and float32 lanes (S2.1: Vector and Scalar engine
// math is float32; inputs are converted up first, results down last). One
// instantiation per dtype, chosen once when a step is pre-decoded.
#pragma once
#include <cstdint>

#include "dtype.hpp"

namespace nisa {

// Elements per batch of the lane loop: small enough for the stack, long enough
// that the per-batch indirect calls vanish.
inline constexpr int64_t kLaneBatch = 512;

// n elements, `stride` bytes apart.
using LoadLanes = void (*)(const uint8_t* src, int64_t stride, int64_t n, float* out);
using StoreLanes = void (*)(uint8_t* dst, int64_t stride, int64_t n, const float* in);

LoadLanes load_lanes_for(Dtype t);
StoreLanes store_lanes_for(Dtype t);

// A float32 converted to the bits of dtype t (S2.2, S2.3), and an int64
// converted exactly/saturating (integer scalars, LANGUAGE.md 2.3).
uint32_t bits_from_f32(Dtype t, float v);
uint32_t bits_from_i64(Dtype t, int64_t v);

}  // namespace nisa
