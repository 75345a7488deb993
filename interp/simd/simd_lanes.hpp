// AVX-512 building blocks of the fast kernels (fused_lane_loop.hpp and the
// instructions' own, simd/<name>_avx512.cpp): 16 elements of a tile to float32 lanes and back (S2.1),
// add/multiply in the portable loops' operand order, and the maximum fold of
// a segment. Each gives exactly the bits of its portable twin: the load is
// lanes.cpp's exact widening, the bf16 store is numbers_minifloat.hpp's round
// to nearest even (S2.2), the maximum is reduction.cpp's fold_exact's
// wherever the order cannot matter (and tells the caller when it can).
// Compiled for AVX-512 whatever the build's target (NISA_AVX512); callers
// check fast_kernels_enabled() first.
#pragma once
#include <cstdint>

#include "dtype.hpp"
#include "fast_kernels.hpp"

#if NISA_HAS_AVX512_KERNELS
#include "avx512_intrinsics.hpp"

namespace nisa::simd {

// The dtypes the fused kernels read and write.
enum class Kind : uint8_t { none, f32, bf16, u8, i8 };

inline Kind kind_of(Dtype t) {
  switch (t) {
    case Dtype::f32: return Kind::f32;
    case Dtype::bf16: return Kind::bf16;
    case Dtype::u8: return Kind::u8;
    case Dtype::i8: return Kind::i8;
    default: return Kind::none;
  }
}

// a + b and a * b with b as the instruction's first source: when both are
// NaN, x86 returns the first source's NaN (quieted), so the operand order
// decides the payload, and the fused kernels must use the order the
// portable loops were compiled with (GCC 12 -O3, checked by
// tests/interp/fast_kernels_test.cpp). The compiler may swap the operands of
// an intrinsic add, so the instruction is spelled out (AT&T order: second
// source first).
NISA_AVX512_INLINE __m512 add_b_first(__m512 a, __m512 b) {
  __m512 r;
  asm("vaddps %1, %2, %0" : "=v"(r) : "v"(a), "v"(b));
  return r;
}
NISA_AVX512_INLINE __m512 multiply_b_first(__m512 a, __m512 b) {
  __m512 r;
  asm("vmulps %1, %2, %0" : "=v"(r) : "v"(a), "v"(b));
  return r;
}

inline __mmask16 first_lanes(int64_t n) {
  return n >= 16 ? __mmask16(0xFFFF) : static_cast<__mmask16>((1u << n) - 1u);
}

// bf16 bits (the low 16 of each 32-bit lane) -> float32: a shift (exact).
NISA_AVX512_INLINE __m512 widen_bf16(__m256i h) {
  return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(h), 16));
}

// float32 -> bf16 bits, as minifloat::narrow_from_f32<Bf16>: add just under
// half an ulp plus the kept lowest bit; the top half is the code. On the
// whole bit pattern, sign included: a finite magnitude plus 0x8000 stays
// below 2^31, and inf and the largest finite values round to 0x7F80 as the
// scalar code's overflow rule does. NaN becomes 0x7FC0 with its sign (S2.2).
// The result's low halves are garbage: pack_bf16 or narrow_bf16 keep the top.
NISA_AVX512_INLINE __m512i bf16_codes_high(__m512 v) {
  const __m512i bits = _mm512_castps_si512(v);
  const __m512i lsb = _mm512_and_si512(_mm512_srli_epi32(bits, 16), _mm512_set1_epi32(1));
  const __m512i rounded = _mm512_add_epi32(_mm512_add_epi32(bits, _mm512_set1_epi32(0x7FFF)), lsb);
  const __mmask16 nan = _mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q);
  const __m512i quiet = _mm512_or_si512(_mm512_and_si512(bits, _mm512_set1_epi32(static_cast<int>(0x80000000u))),
                                        _mm512_set1_epi32(0x7FC00000));
  return _mm512_mask_mov_epi32(rounded, nan, quiet);
}
NISA_AVX512_INLINE __m256i narrow_bf16(__m512 v) {
  return _mm512_cvtepi32_epi16(_mm512_srli_epi32(bf16_codes_high(v), 16));
}

// bf16 codes -> the same codes after widening to float32 and narrowing back:
// unchanged, but NaN becomes 0x7FC0 with its sign (S2.2).
NISA_AVX512_INLINE __m512i canonical_bf16(__m512i codes) {
  const __mmask32 nan =
      _mm512_cmpgt_epu16_mask(_mm512_and_si512(codes, _mm512_set1_epi16(0x7FFF)), _mm512_set1_epi16(0x7F80));
  const __m512i quiet = _mm512_or_si512(_mm512_and_si512(codes, _mm512_set1_epi16(static_cast<short>(0x8000))),
                                        _mm512_set1_epi16(0x7FC0));
  return _mm512_mask_mov_epi16(codes, nan, quiet);
}

// The first and last 16 of 32 bf16 codes as float32.
NISA_AVX512_INLINE __m512 widen_bf16_first(__m512i codes) { return widen_bf16(_mm512_castsi512_si256(codes)); }
NISA_AVX512_INLINE __m512 widen_bf16_last(__m512i codes) { return widen_bf16(_mm512_extracti64x4_epi64(codes, 1)); }

// 16 (or the lanes of m; the others read as 0) elements at p as float32.
template <Kind k>
NISA_AVX512_INLINE __m512 load16(const uint8_t* p, __mmask16 m) {
  if constexpr (k == Kind::f32) return _mm512_maskz_loadu_ps(m, p);
  else if constexpr (k == Kind::bf16) return widen_bf16(_mm256_maskz_loadu_epi16(m, p));
  else if constexpr (k == Kind::u8) return _mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(_mm_maskz_loadu_epi8(m, p)));
  else if constexpr (k == Kind::i8) return _mm512_cvtepi32_ps(_mm512_cvtepi8_epi32(_mm_maskz_loadu_epi8(m, p)));
  else return _mm512_setzero_ps();
}

// bf16 codes of a and b (high halves of their lanes) as 32 bf16, a first.
NISA_AVX512_INLINE __m512i pack_bf16(__m512i a, __m512i b) {
  const __m512i high_halves = _mm512_set_epi16(63, 61, 59, 57, 55, 53, 51, 49, 47, 45, 43, 41, 39, 37, 35, 33, 31, 29,
                                               27, 25, 23, 21, 19, 17, 15, 13, 11, 9, 7, 5, 3, 1);
  return _mm512_permutex2var_epi16(a, high_halves, b);
}

// How a kernel narrows float32 to bf16: by bit arithmetic (bf16_codes_high)
// or, where the CPU has AVX512-BF16, by its VCVTNE(2)PS2BF16, which rounds to
// nearest even as S2.2 does but flushes denormal inputs to zero and keeps a
// NaN's payload: vectors holding either take the bit arithmetic. Each kernel
// reads bf16_instructions_enabled() once per step into a Narrowing.
enum class Narrowing : bool { bits, instruction };

inline Narrowing narrowing() {
  return bf16_instructions_enabled() ? Narrowing::instruction : Narrowing::bits;
}

// Some lane of v is a NaN or a denormal (VFPCLASSPS: QNaN 0x01, denormal
// 0x20, SNaN 0x80).
NISA_AVX512_INLINE __mmask16 nan_or_denormal(__m512 v) { return _mm512_fpclass_ps_mask(v, 0xA1); }

NISA_AVX512_INLINE __m256i narrow_bf16(__m512 v, Narrowing how) {
  // (__m256i): a vector cast, the same bits.
  if (how == Narrowing::instruction && nan_or_denormal(v) == 0) return (__m256i)_mm512_cvtneps_pbh(v);
  return narrow_bf16(v);
}

// The lanes of m of v converted to dst's dtype (f32 or bf16) at p; `how`
// matters for bf16 only (row tails may keep the default).
template <Kind k>
NISA_AVX512_INLINE void store16(uint8_t* p, __m512 v, __mmask16 m, Narrowing how = Narrowing::bits) {
  if constexpr (k == Kind::bf16) _mm256_mask_storeu_epi16(p, m, narrow_bf16(v, how));
  else _mm512_mask_storeu_ps(p, m, v);
}

// 32 results a (first) and b stored whole.
template <Kind k>
NISA_AVX512_INLINE void store32(uint8_t* p, __m512 a, __m512 b, Narrowing how = Narrowing::bits) {
  if constexpr (k == Kind::bf16) {
    if (how == Narrowing::instruction && (nan_or_denormal(a) | nan_or_denormal(b)) == 0) {
      _mm512_storeu_si512(p, (__m512i)_mm512_cvtne2ps_pbh(b, a));
      return;
    }
    _mm512_storeu_si512(p, pack_bf16(bf16_codes_high(a), bf16_codes_high(b)));
  } else {
    _mm512_storeu_ps(p, a);
    _mm512_storeu_ps(p + 64, b);
  }
}

template <Kind k>
NISA_AVX512_INLINE __m512 load16(const uint8_t* p) {
  if constexpr (k == Kind::f32) return _mm512_loadu_ps(p);
  else if constexpr (k == Kind::bf16) return widen_bf16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
  else if constexpr (k == Kind::u8) return _mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p))));
  else if constexpr (k == Kind::i8) return _mm512_cvtepi32_ps(_mm512_cvtepi8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p))));
  else return _mm512_setzero_ps();
}

constexpr int64_t kind_size(Kind k) { return k == Kind::f32 ? 4 : k == Kind::bf16 ? 2 : 1; }

// The maximum of a fold segment for the common case, where its bits cannot
// depend on the order: any NaN gives the quiet NaN, and a maximum other
// than zero has one bit pattern. MAXPS in two independent accumulators (no
// compare-and-blend chain to wait for); a zero maximum (whose sign does
// depend on fold_exact's order) is left to the caller's exact fold.
struct MaxValue {
  __m512 low, high;
  __mmask16 nan;
};

NISA_AVX512_INLINE MaxValue max_value(float r) {
  const __m512 start = _mm512_set1_ps(r);
  return MaxValue{start, start, 0};
}

// MAXPS returns its second operand when either is NaN: the accumulators
// never take a NaN; `nan` notes them.
NISA_AVX512_INLINE void add_max(MaxValue& m, __m512 a, __m512 b) {
  m.nan |= static_cast<__mmask16>(_mm512_cmp_ps_mask(a, a, _CMP_UNORD_Q) | _mm512_cmp_ps_mask(b, b, _CMP_UNORD_Q));
  m.low = _mm512_max_ps(a, m.low);
  m.high = _mm512_max_ps(b, m.high);
}

NISA_AVX512_INLINE void add_max(MaxValue& m, __m512 v, __mmask16 live) {
  m.nan |= _mm512_mask_cmp_ps_mask(live, v, v, _CMP_UNORD_Q);
  m.low = _mm512_mask_max_ps(m.low, live, v, m.low);
}

// fold(maximum, r, segment) when that cannot depend on the order; else sets
// `exact` (the caller then folds the segment in order).
NISA_AVX512_INLINE float max_result(float r, const MaxValue& m, bool& exact) {
  if (m.nan != 0 || r != r) return __builtin_nanf("");
  const float v = _mm512_reduce_max_ps(_mm512_max_ps(m.low, m.high));
  exact = v == 0.0f;
  return v;
}

}  // namespace nisa::simd
#endif
