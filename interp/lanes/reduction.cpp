#include "reduction.hpp"

#include <cstring>

namespace nisa {
namespace {

// maximum/minimum (and their abs forms) are exact in any order, so the fold
// keeps independent partial results in 8-wide vectors (GCC/Clang vector
// extensions: SIMD max/min on any target) and notes NaNs apart (S2.1: any NaN
// makes the result NaN). kAbs: fold |v|. kMax: maximum, else minimum.
using Float8 = float __attribute__((vector_size(32)));  // one AVX register (two SSE ones without AVX)
using Int8 = int32_t __attribute__((vector_size(32)));

// Vectors pass by reference: by value they would change the calling
// convention between AVX and SSE builds (-Wpsabi).
template <bool kMax, bool kAbs>
inline void pick(const Float8& value, Float8& part, Int8& nan) {
  Float8 x = value;
  if constexpr (kAbs) x = reinterpret_cast<Float8>(reinterpret_cast<Int8>(x) & 0x7FFFFFFF);
  nan |= (x != x);
  // The MAXPS/MINPS pattern (a NaN x keeps `part`; `nan` notes it).
  if constexpr (kMax) part = x > part ? x : part;
  else part = x < part ? x : part;
}

// kCopy: also copies v to `copy` in the same pass (range_select's kept run).
template <bool kMax, bool kAbs, bool kCopy = false>
float fold_exact(float r, const float* v, int64_t n, float* copy = nullptr) {
  // Four independent chains (and NaN notes): each pick waits for its
  // chain's previous one, so one chain would be bound by latency.
  constexpr int kChains = 4;
  Float8 part[kChains];
  Int8 nan[kChains];
  for (int c = 0; c < kChains; ++c) part[c] = Float8{r, r, r, r, r, r, r, r}, nan[c] = Int8{0, 0, 0, 0, 0, 0, 0, 0};
  int64_t i = 0;
  for (; i + 8 * kChains <= n; i += 8 * kChains)
    for (int c = 0; c < kChains; ++c) {
      Float8 x;
      std::memcpy(&x, v + i + 8 * c, sizeof x);
      if constexpr (kCopy) std::memcpy(copy + i + 8 * c, &x, sizeof x);
      pick<kMax, kAbs>(x, part[c], nan[c]);
    }
  for (int c = 1; c < kChains; ++c) {
    pick<kMax, false>(part[c], part[0], nan[0]);
    nan[0] |= nan[c];
  }
  float out = r;
  bool any_nan = r != r;
  auto take = [&](float x) {
    if constexpr (kAbs) x = std::fabs(x);
    any_nan |= x != x;
    out = (kMax ? x > out : x < out) ? x : out;
  };
  for (int k = 0; k < 8; ++k) {
    take(part[0][k]);
    any_nan |= nan[0][k] != 0;
  }
  for (; i < n; ++i) {
    if constexpr (kCopy) copy[i] = v[i];
    take(v[i]);
  }
  return any_nan ? std::numeric_limits<float>::quiet_NaN() : out;
}

}  // namespace

float fold(ReduceOp op, float r, const float* v, int64_t n) {
  switch (op) {
    case ReduceOp::add:
      // S3: strictly left to right in float32, so that sums are bit-exact
      // against the NumPy reference (a reordered, vectorised sum would be
      // faster but changes the low bits).
      for (int64_t i = 0; i < n; ++i) r += v[i];
      return r;
    case ReduceOp::maximum: return fold_exact<true, false>(r, v, n);
    case ReduceOp::minimum: return fold_exact<false, false>(r, v, n);
    case ReduceOp::abs_max: return fold_exact<true, true>(r, v, n);
    case ReduceOp::abs_min: return fold_exact<false, true>(r, v, n);
    // Left to right in float32, as the add fold.
    case ReduceOp::subtract:
      for (int64_t i = 0; i < n; ++i) r -= v[i];
      return r;
    case ReduceOp::multiply:
      for (int64_t i = 0; i < n; ++i) r *= v[i];
      return r;
    case ReduceOp::logical_and:
    case ReduceOp::logical_or:
    case ReduceOp::logical_xor:
      for (int64_t i = 0; i < n; ++i) r = combine(op, r, v[i]);
      return r;
    case ReduceOp::bitwise_and:  // bit patterns: bit_alu.hpp
    case ReduceOp::bitwise_or:
    case ReduceOp::bitwise_xor: break;
  }
  return r;
}

float fold_max_copying(float r, const float* v, float* copy, int64_t n) {
  return copy == v ? fold_exact<true, false>(r, v, n) : fold_exact<true, false, true>(r, v, n, copy);
}

void fold_add_lanes(float* r, const float* const* v, int lanes, int64_t n) {
  if (lanes != kFoldLanes) {
    for (int k = 0; k < lanes; ++k) r[k] = fold(ReduceOp::add, r[k], v[k], n);
    return;
  }
  float a0 = r[0], a1 = r[1], a2 = r[2], a3 = r[3], a4 = r[4], a5 = r[5], a6 = r[6], a7 = r[7];
  const float *v0 = v[0], *v1 = v[1], *v2 = v[2], *v3 = v[3], *v4 = v[4], *v5 = v[5], *v6 = v[6], *v7 = v[7];
  for (int64_t i = 0; i < n; ++i) {
    a0 += v0[i];
    a1 += v1[i];
    a2 += v2[i];
    a3 += v3[i];
    a4 += v4[i];
    a5 += v5[i];
    a6 += v6[i];
    a7 += v7[i];
  }
  r[0] = a0, r[1] = a1, r[2] = a2, r[3] = a3, r[4] = a4, r[5] = a5, r[6] = a6, r[7] = a7;
}

void update_accumulator(const Step& s, Machine& m, int64_t p, float r) {
  if (s.accumulator == AccumulatorEngine::none) return;
  float* acc = s.accumulator == AccumulatorEngine::vector ? m.vector_accumulator.data() : m.scalar_accumulator.data();
  float& lane = acc[s.first_lane + p];
  switch (s.reduce_cmd) {
    case ReduceCmd::idle: break;
    case ReduceCmd::reset: lane = reduce_identity(s.reduce_op); break;
    case ReduceCmd::reset_reduce: lane = combine(s.reduce_op, reduce_identity(s.reduce_op), r); break;
    case ReduceCmd::reduce: lane = combine(s.reduce_op, lane, r); break;
  }
  if (s.reduce_res != nullptr) s.reduce_res->store(s.reduce_res->partition(p), s.reduce_res->element_stride, 1, &lane);
}

}  // namespace nisa
