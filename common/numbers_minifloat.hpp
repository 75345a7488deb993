// Bit-level conversions between float32 and the narrower binary float formats
// (bf16, f16, tf32, the three fp8 types), written once for a format described by
// its exponent and mantissa widths (SEMANTICS.md S2.2). numbers.hpp builds the
// per-dtype Element types on these.
//
// The narrowing is branch-light (the three candidate results -- subnormal,
// normal, special -- are computed and one is selected), so loops over
// contiguous data can vectorise. It relies on the default floating-point
// environment: round to nearest even, no flush-to-zero (never build with
// -ffast-math).
#pragma once
#include <array>
#include <bit>
#include <cstdint>

namespace nisa::minifloat {

// A binary float format: 1 sign bit, `exp_bits` exponent bits with bias
// 2^(exp_bits-1)-1, `man_bits` mantissa bits. `ieee`: the all-ones exponent
// holds inf (mantissa 0) and NaN (anything else) and overflow rounds to inf.
// Not `ieee` (the "fn" flavour, fp8e4m3fn): no infinity, only the all-ones
// code S.1111.111 is NaN, and finite values beyond the largest saturate (S2.2).
template <int ExpBits, int ManBits, bool Ieee>
struct Format {
  static constexpr int exp_bits = ExpBits;
  static constexpr int man_bits = ManBits;
  static constexpr bool ieee = Ieee;
  static constexpr int bias = (1 << (ExpBits - 1)) - 1;
  static constexpr int shift = 23 - ManBits;  // float32 mantissa bits dropped
  static constexpr uint32_t sign_bit = 1u << (ExpBits + ManBits);
  static constexpr uint32_t magnitude_mask = sign_bit - 1;
  static constexpr uint32_t exp_all_ones = (1u << ExpBits) - 1;
  static constexpr uint32_t inf_code = exp_all_ones << ManBits;  // ieee only
  static constexpr uint32_t nan_code = Ieee ? (inf_code | (1u << (ManBits - 1))) : magnitude_mask;
  static constexpr uint32_t max_finite_code = Ieee ? inf_code - 1 : magnitude_mask - 1;
  // Largest exponent field of a finite value, and the float32 bits of
  // 2^(emax+1): magnitudes from there up can never round to a finite value.
  static constexpr int emax_field = Ieee ? static_cast<int>(exp_all_ones) - 1 : static_cast<int>(exp_all_ones);
  static constexpr uint32_t overflow_f32_bits = static_cast<uint32_t>(127 + emax_field - bias + 1) << 23;
  // float32 bits of the smallest normal value 2^(1-bias).
  static constexpr uint32_t min_normal_f32_bits = static_cast<uint32_t>(127 + 1 - bias) << 23;
};

using Bf16 = Format<8, 7, true>;
using F16 = Format<5, 10, true>;
using Tf32 = Format<8, 10, true>;
using Fp8e4m3 = Format<4, 3, true>;     // NKI float8_e4m3: max finite 240
using Fp8e4m3fn = Format<4, 3, false>;  // NKI float8_e4m3fn: max finite 448
using Fp8e5m2 = Format<5, 2, true>;     // max finite 57344

// cond ? if_true : if_false, as bit masking: keeps the compiler from turning a
// select whose arm holds a float operation into a branch (which blocks
// vectorisation under the default -ftrapping-math).
constexpr uint32_t select_bits(bool cond, uint32_t if_true, uint32_t if_false) {
  const uint32_t mask = 0u - static_cast<uint32_t>(cond);
  return (if_true & mask) | (if_false & ~mask);
}

// float32 -> format code (the low 1+exp_bits+man_bits bits), round to nearest,
// ties to even (S2.2). NaN becomes the format's canonical quiet NaN with the
// input's sign; ieee formats overflow to inf, the fn format saturates (inf too).
template <class Fmt>
constexpr uint32_t narrow_from_f32(float x) {
  const uint32_t bits = std::bit_cast<uint32_t>(x);
  const uint32_t a = bits & 0x7FFFFFFFu;  // magnitude
  const uint32_t sign = (bits >> 31) * Fmt::sign_bit;

  // Normal results: rebias the exponent, then add just under half an ulp plus
  // the kept mantissa's lowest bit -- this rounds to nearest even, and a
  // mantissa carry correctly bumps the exponent (up to inf for ieee formats).
  // For magnitudes below the normal range the (unsigned, wrapping) result is
  // discarded below.
  uint32_t normal = a + (static_cast<uint32_t>(Fmt::bias - 127) << 23);
  normal += ((1u << (Fmt::shift - 1)) - 1) + ((a >> Fmt::shift) & 1u);
  normal >>= Fmt::shift;

  uint32_t code = normal;
  if constexpr (Fmt::bias != 127) {
    // Subnormal results: adding 2^(1-bias+shift) aligns the format's subnormal
    // ulp with float32's ulp at that exponent, so the float32 adder does the
    // rounding (ties to even); the integer difference is the code (a carry
    // into the smallest normal encodes correctly too).
    constexpr uint32_t magic_bits = Fmt::min_normal_f32_bits + (static_cast<uint32_t>(Fmt::shift) << 23);
    const float sum = std::bit_cast<float>(a) + std::bit_cast<float>(magic_bits);
    const uint32_t subnormal = std::bit_cast<uint32_t>(sum) - magic_bits;
    code = select_bits(a < Fmt::min_normal_f32_bits, subnormal, code);
  }
  if constexpr (!Fmt::ieee) code = select_bits(code < Fmt::max_finite_code, code, Fmt::max_finite_code);
  code = select_bits(a >= Fmt::overflow_f32_bits, Fmt::ieee ? Fmt::inf_code : Fmt::max_finite_code, code);
  code = select_bits(a > 0x7F800000u, Fmt::nan_code, code);
  return code | sign;
}

// format code -> float32, exact. NaN keeps its sign and payload bits.
template <class Fmt>
constexpr float widen_to_f32(uint32_t code) {
  const uint32_t a = code & Fmt::magnitude_mask;
  const uint32_t sign = (code & Fmt::sign_bit) != 0 ? 0x80000000u : 0u;
  const uint32_t exp = a >> Fmt::man_bits;
  const uint32_t shifted = a << Fmt::shift;
  uint32_t bits = shifted + (static_cast<uint32_t>(127 - Fmt::bias) << 23);
  if constexpr (Fmt::bias != 127) {
    // Subnormal: 2^(1-bias) * (1 + m) - 2^(1-bias) = 2^(1-bias) * m, exactly.
    const uint32_t lifted = shifted + Fmt::min_normal_f32_bits;
    const float subnormal = std::bit_cast<float>(lifted) - std::bit_cast<float>(Fmt::min_normal_f32_bits);
    bits = select_bits(exp == 0, std::bit_cast<uint32_t>(subnormal), bits);
  }
  if constexpr (Fmt::ieee) {
    bits = select_bits(exp == Fmt::exp_all_ones, shifted | 0x7F800000u, bits);
  } else {
    bits = select_bits(a == Fmt::magnitude_mask, 0x7FC00000u, bits);
  }
  return std::bit_cast<float>(bits | sign);
}

// Every value of an 8-bit format, for table lookup.
template <class Fmt>
constexpr std::array<float, 256> widening_table() {
  std::array<float, 256> table{};
  for (uint32_t code = 0; code < 256; ++code) table[code] = widen_to_f32<Fmt>(code);
  return table;
}

}  // namespace nisa::minifloat
