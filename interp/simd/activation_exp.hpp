// The Scalar engine's exp in float32 (S5: within rtol 1e-5 of float64;
// tests/interp/activation_accuracy_test), once as scalar code that loops
// vectorise (activation_functions.cpp) and once on 16 AVX-512 lanes for the
// fused activation kernel (activation_avx512.cpp). Both are the same float32
// operations in the same order on the same constants, so they give the same
// bits for every input (checked over all 2^32 floats by
// tests/interp/fast_kernels_test.cpp, ctest exp_exhaustive).
//
// Cephes expf: x = n ln2 + r with |r| <= ln2/2 (ln2 in two parts, Cody-Waite),
// e^r by a degree-7 polynomial, then 2^n applied as two factors 2^(n/2) so that
// results from overflow down into the subnormal range get one rounding.
#pragma once
#include <bit>
#include <cstdint>

#include "fast_kernels.hpp"

namespace nisa::cephes {

inline constexpr float kLowest = -104.0f, kHighest = 89.0f;  // beyond: 0 and inf whatever the rounding
inline constexpr float kRound = 12582912.0f;  // 1.5 * 2^23: adding it rounds to an integer (nearest even)
inline constexpr float kLog2e = 1.44269504088896341f;
inline constexpr float kLn2High = 0.693359375f, kLn2Low = -2.12194440e-4f;
inline constexpr float kPoly[6] = {1.9875691500e-4f, 1.3981999507e-3f, 8.3334519073e-3f,
                                   4.1665795894e-2f, 1.6666665459e-1f, 5.0000001201e-1f};

// cond ? a : b on the bits: under the default -ftrapping-math a select between
// float results would otherwise become a branch and block vectorisation.
inline float select_float(bool cond, float a, float b) {
  const uint32_t mask = 0u - static_cast<uint32_t>(cond);
  return std::bit_cast<float>((std::bit_cast<uint32_t>(a) & mask) | (std::bit_cast<uint32_t>(b) & ~mask));
}

inline float exp_f32(float x) {
  const float lo = select_float(x > kLowest, x, kLowest);  // NaN -> -104 (its result is replaced below)
  const float xc = select_float(lo < kHighest, lo, kHighest);
  const float n = (xc * kLog2e + kRound) - kRound;
  float r = xc - n * kLn2High;
  r = r - n * kLn2Low;
  const float z = r * r;
  float p = kPoly[0];
  for (int k = 1; k < 6; ++k) p = p * r + kPoly[k];
  p = p * z + r + 1.0f;
  const auto ni = static_cast<int32_t>(n);
  const int32_t n1 = ni / 2, n2 = ni - n1;
  const float s1 = std::bit_cast<float>(static_cast<uint32_t>(n1 + 127) << 23);
  const float s2 = std::bit_cast<float>(static_cast<uint32_t>(n2 + 127) << 23);
  const float y = p * s1 * s2;
  return select_float(x != x, x, y);  // NaN propagates (S2.1)
}

}  // namespace nisa::cephes

#if NISA_HAS_AVX512_KERNELS
#include "avx512_intrinsics.hpp"

namespace nisa::cephes {

// exp_f32 on N vectors of 16 lanes, operation for operation; the N are
// independent, and each step is written for all of them together so that
// the long dependency chain of one vector overlaps the others'.
template <int N>
NISA_AVX512_INLINE void exp16(__m512 (&v)[N]) {
  const __m512 lowest = _mm512_set1_ps(kLowest), highest = _mm512_set1_ps(kHighest), round = _mm512_set1_ps(kRound);
  __m512 n[N], r[N], z[N], p[N];
  for (int j = 0; j < N; ++j) {
    // x > lowest ? x : lowest and lo < highest ? lo : highest: MAXPS and
    // MINPS return their second operand when either is NaN or both are equal.
    const __m512 lo = _mm512_max_ps(v[j], lowest);
    const __m512 xc = _mm512_min_ps(lo, highest);
    n[j] = _mm512_sub_ps(_mm512_add_ps(_mm512_mul_ps(xc, _mm512_set1_ps(kLog2e)), round), round);
    r[j] = _mm512_sub_ps(xc, _mm512_mul_ps(n[j], _mm512_set1_ps(kLn2High)));
  }
  for (int j = 0; j < N; ++j) {
    r[j] = _mm512_sub_ps(r[j], _mm512_mul_ps(n[j], _mm512_set1_ps(kLn2Low)));
    z[j] = _mm512_mul_ps(r[j], r[j]);
    p[j] = _mm512_set1_ps(kPoly[0]);
  }
  for (int k = 1; k < 6; ++k)
    for (int j = 0; j < N; ++j) p[j] = _mm512_add_ps(_mm512_mul_ps(p[j], r[j]), _mm512_set1_ps(kPoly[k]));
  for (int j = 0; j < N; ++j) {
    p[j] = _mm512_add_ps(_mm512_add_ps(_mm512_mul_ps(p[j], z[j]), r[j]), _mm512_set1_ps(1.0f));
    // p * 2^n1 * 2^n2 with n1 = n / 2 toward zero: VSCALEFPS multiplies by
    // 2^n2 with one rounding, as the multiply by the exact power does
    // (|n1|, |n2| <= 75: both powers are normal floats).
    const __m512 n1 =
        _mm512_roundscale_ps(_mm512_mul_ps(n[j], _mm512_set1_ps(0.5f)), _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
    const __m512 n2 = _mm512_sub_ps(n[j], n1);
    const __m512 y = _mm512_scalef_ps(_mm512_scalef_ps(p[j], n1), n2);
    v[j] = _mm512_mask_mov_ps(y, _mm512_cmp_ps_mask(v[j], v[j], _CMP_UNORD_Q), v[j]);
  }
}

NISA_AVX512_INLINE __m512 exp16(__m512 x) {
  __m512 v[1] = {x};
  exp16<1>(v);
  return v[0];
}

}  // namespace nisa::cephes
#endif
