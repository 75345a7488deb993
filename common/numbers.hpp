// Element types of the modeled machine and the conversions between them and
// float32 (SEMANTICS.md S2). The interpreter's typed kernels are templates over
// Element<T>: choose the kernel once per instruction with dispatch_dtype, then
// run a plain loop over contiguous storage values -- no per-element dtype
// branches.
//
//   Element<T>::storage          the in-memory representation (dtype_size(T) bytes,
//                                little-endian like the host):
//     f32        float
//     tf32       uint32_t: the float32 bit pattern, low 13 mantissa bits zero
//     bf16, f16  uint16_t: the format's bits
//     fp8*       uint8_t: the format's bits
//     i8 i16 i32 int8_t int16_t int32_t;  u8 u16 u32 uint8_t uint16_t uint32_t
//   Element<T>::to_f32(s)        exact widening; integers -> nearest float32 (S2.3)
//   Element<T>::from_f32(x)      round to nearest even; floats per S2.2 (overflow
//                                to inf, fp8e4m3fn saturates to +-448, subnormals
//                                kept, NaN -> canonical quiet NaN with its sign),
//                                integers per S2.3 (saturate, NaN -> 0)
//   Element<T>::from_i64(v)      integers: exact, saturating; floats:
//                                from_f32(nearest float32 of v)
//   Element<T>::is_float, ::dtype
//
// Canonical NaN codes written by from_f32 (sign bit added for negative NaN):
// bf16 0x7FC0, f16 0x7E00, tf32 0x7FC00000, fp8e4m3 0x7C, fp8e4m3fn 0x7F,
// fp8e5m2 0x7E. to_f32 keeps a NaN's sign and payload bits.
// All from_f32/to_f32 are branch-free, so loops over them vectorise at -O3
// (float -> i32/u32 needs AVX-512 for that). They rely on the default
// floating-point environment (round to nearest, no flush-to-zero, no
// -ffast-math). Checked against an independent NumPy model over ~2 million
// inputs by tests/numbers/make_reference.py.
//
// S2.4: fp32.min (0xFF7FFFFF) becomes -inf in bf16, f16, fp8e4m3 and fp8e5m2
// (it rounds beyond their finite range), and in tf32 too (rounding away 13
// mantissa bits of all ones carries past tf32's largest finite 0x7F7FE000);
// fp8e4m3fn has no -inf and saturates it to -448 (S2.2).
#pragma once
#include <bit>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <type_traits>

#include "dtype.hpp"
#include "numbers_minifloat.hpp"

namespace nisa {

namespace numbers_detail {

// S2.3: round to nearest even, saturate to I's range, NaN -> 0. Works on the
// magnitude's bits with mask selects (no branches, so loops vectorise):
//   - NaN becomes 0; magnitudes are clamped to 2^(bits of I + 1), which still
//     saturates and keeps the conversion to the wide integer W defined;
//   - for |x| < 2^23, adding 2^23 leaves no fraction bits, so the float adder
//     rounds to nearest even; larger magnitudes are already integers.
template <class I>
inline I float_to_int(float x) {
  // W holds every clamped magnitude: int32 for 8- and 16-bit I (which
  // vectorises on SSE2), int64 for 32-bit I.
  using W = std::conditional_t<(sizeof(I) < 4), int32_t, int64_t>;
  constexpr uint32_t limit_bits = static_cast<uint32_t>(127 + 8 * sizeof(I) + 1) << 23;
  const uint32_t bits = std::bit_cast<uint32_t>(x);
  uint32_t mag = bits & 0x7FFFFFFFu;
  mag = minifloat::select_bits(mag > 0x7F800000u, 0u, mag);
  mag = minifloat::select_bits(mag > limit_bits, limit_bits, mag);
  const float rounded = (std::bit_cast<float>(mag) + 0x1p23f) - 0x1p23f;
  mag = minifloat::select_bits(mag < 0x4B000000u, std::bit_cast<uint32_t>(rounded), mag);  // |x| < 2^23
  const W magnitude = static_cast<W>(std::bit_cast<float>(mag));
  const W negate = -static_cast<W>(bits >> 31);  // all ones for negative x
  W i = (magnitude ^ negate) - negate;
  constexpr W lo = std::numeric_limits<I>::min();
  constexpr W hi = std::numeric_limits<I>::max();
  i = i < lo ? lo : i;
  i = i > hi ? hi : i;
  return static_cast<I>(i);
}

template <class I>
inline I int64_to_int(int64_t v) {
  constexpr int64_t lo = std::numeric_limits<I>::min();
  constexpr int64_t hi = std::numeric_limits<I>::max();
  return static_cast<I>(v < lo ? lo : (v > hi ? hi : v));
}

inline constexpr auto kFp8e4m3Values = minifloat::widening_table<minifloat::Fp8e4m3>();
inline constexpr auto kFp8e4m3fnValues = minifloat::widening_table<minifloat::Fp8e4m3fn>();
inline constexpr auto kFp8e5m2Values = minifloat::widening_table<minifloat::Fp8e5m2>();

// An integer dtype stored as I.
template <Dtype T, class I>
struct IntElement {
  using storage = I;
  static constexpr Dtype dtype = T;
  static constexpr bool is_float = false;
  static float to_f32(storage s) { return static_cast<float>(s); }
  static storage from_f32(float x) { return float_to_int<I>(x); }
  static storage from_i64(int64_t v) { return int64_to_int<I>(v); }
};

// A float dtype narrower than float32, stored as its bits in S.
template <Dtype T, class Fmt, class S>
struct MiniFloatElement {
  using storage = S;
  static constexpr Dtype dtype = T;
  static constexpr bool is_float = true;
  static float to_f32(storage s) { return minifloat::widen_to_f32<Fmt>(s); }
  static storage from_f32(float x) { return static_cast<storage>(minifloat::narrow_from_f32<Fmt>(x)); }
  static storage from_i64(int64_t v) { return from_f32(static_cast<float>(v)); }
};

// fp8: widen by table lookup (256 entries, built at compile time).
template <Dtype T, class Fmt, const std::array<float, 256>& Values>
struct Fp8Element : MiniFloatElement<T, Fmt, uint8_t> {
  static float to_f32(uint8_t s) { return Values[s]; }
};

}  // namespace numbers_detail

template <Dtype T>
struct Element;

template <>
struct Element<Dtype::f32> {
  using storage = float;
  static constexpr Dtype dtype = Dtype::f32;
  static constexpr bool is_float = true;
  static float to_f32(storage s) { return s; }
  static storage from_f32(float x) { return x; }
  static storage from_i64(int64_t v) { return static_cast<float>(v); }
};

// bf16: the top half of a float32. Widening is a shift.
template <>
struct Element<Dtype::bf16> : numbers_detail::MiniFloatElement<Dtype::bf16, minifloat::Bf16, uint16_t> {
  static float to_f32(storage s) { return std::bit_cast<float>(static_cast<uint32_t>(s) << 16); }
};

template <>
struct Element<Dtype::f16> : numbers_detail::MiniFloatElement<Dtype::f16, minifloat::F16, uint16_t> {};

// tf32: stored as the float32 bit pattern with the low 13 mantissa bits zero.
template <>
struct Element<Dtype::tf32> {
  using storage = uint32_t;
  static constexpr Dtype dtype = Dtype::tf32;
  static constexpr bool is_float = true;
  static float to_f32(storage s) { return std::bit_cast<float>(s); }
  static storage from_f32(float x) {
    return minifloat::narrow_from_f32<minifloat::Tf32>(x) << minifloat::Tf32::shift;
  }
  static storage from_i64(int64_t v) { return from_f32(static_cast<float>(v)); }
};

template <>
struct Element<Dtype::fp8e4m3>
    : numbers_detail::Fp8Element<Dtype::fp8e4m3, minifloat::Fp8e4m3, numbers_detail::kFp8e4m3Values> {};
template <>
struct Element<Dtype::fp8e4m3fn>
    : numbers_detail::Fp8Element<Dtype::fp8e4m3fn, minifloat::Fp8e4m3fn, numbers_detail::kFp8e4m3fnValues> {};
template <>
struct Element<Dtype::fp8e5m2>
    : numbers_detail::Fp8Element<Dtype::fp8e5m2, minifloat::Fp8e5m2, numbers_detail::kFp8e5m2Values> {};

template <>
struct Element<Dtype::i8> : numbers_detail::IntElement<Dtype::i8, int8_t> {};
template <>
struct Element<Dtype::i16> : numbers_detail::IntElement<Dtype::i16, int16_t> {};
template <>
struct Element<Dtype::i32> : numbers_detail::IntElement<Dtype::i32, int32_t> {};
template <>
struct Element<Dtype::u8> : numbers_detail::IntElement<Dtype::u8, uint8_t> {};
template <>
struct Element<Dtype::u16> : numbers_detail::IntElement<Dtype::u16, uint16_t> {};
template <>
struct Element<Dtype::u32> : numbers_detail::IntElement<Dtype::u32, uint32_t> {};
// The MX types as their storage bits: the spec admits them only to the MX
// instructions (which decode them, interp/lanes/mx_values.hpp) and to bit copies,
// so these conversions exist for dispatch only and never reach a result.
template <>
struct Element<Dtype::fp8e4m3fn_x4> : numbers_detail::IntElement<Dtype::fp8e4m3fn_x4, uint32_t> {};
template <>
struct Element<Dtype::fp8e5m2_x4> : numbers_detail::IntElement<Dtype::fp8e5m2_x4, uint32_t> {};
template <>
struct Element<Dtype::fp4e2m1fn_x4> : numbers_detail::IntElement<Dtype::fp4e2m1fn_x4, uint16_t> {};
template <>
struct Element<Dtype::fp8e8m0> : numbers_detail::IntElement<Dtype::fp8e8m0, uint8_t> {};

// Calls f(Element<T>{}) for the runtime dtype t and returns its result (every
// instantiation must return the same type). Use it once per instruction to pick
// a typed kernel, never per element.
template <class F>
decltype(auto) dispatch_dtype(Dtype t, F&& f) {
  switch (t) {
    case Dtype::f32: return f(Element<Dtype::f32>{});
    case Dtype::bf16: return f(Element<Dtype::bf16>{});
    case Dtype::f16: return f(Element<Dtype::f16>{});
    case Dtype::tf32: return f(Element<Dtype::tf32>{});
    case Dtype::fp8e4m3: return f(Element<Dtype::fp8e4m3>{});
    case Dtype::fp8e4m3fn: return f(Element<Dtype::fp8e4m3fn>{});
    case Dtype::fp8e5m2: return f(Element<Dtype::fp8e5m2>{});
    case Dtype::i8: return f(Element<Dtype::i8>{});
    case Dtype::i16: return f(Element<Dtype::i16>{});
    case Dtype::i32: return f(Element<Dtype::i32>{});
    case Dtype::u8: return f(Element<Dtype::u8>{});
    case Dtype::u16: return f(Element<Dtype::u16>{});
    case Dtype::u32: return f(Element<Dtype::u32>{});
    case Dtype::fp8e4m3fn_x4: return f(Element<Dtype::fp8e4m3fn_x4>{});
    case Dtype::fp8e5m2_x4: return f(Element<Dtype::fp8e5m2_x4>{});
    case Dtype::fp4e2m1fn_x4: return f(Element<Dtype::fp4e2m1fn_x4>{});
    case Dtype::fp8e8m0: return f(Element<Dtype::fp8e8m0>{});
  }
  throw std::invalid_argument("dispatch_dtype: not a Dtype");
}

// Convenience for a single value (not for loops): float32 -> storage bits of t,
// and back, through the typed paths above.
inline float dtype_to_f32(Dtype t, const void* element) {
  return dispatch_dtype(t, [&](auto e) -> float {
    using E = decltype(e);
    typename E::storage s;
    std::memcpy(&s, element, sizeof s);
    return E::to_f32(s);
  });
}
inline void dtype_from_f32(Dtype t, float x, void* element) {
  dispatch_dtype(t, [&](auto e) {
    using E = decltype(e);
    const typename E::storage s = E::from_f32(x);
    std::memcpy(element, &s, sizeof s);
  });
}

}  // namespace nisa
