// The arithmetic ALU operators of tensor_scalar, tensor_tensor and activate2,
// over batches of float32 lanes: NKI 0.6's operator table
// (nki.api.shared.rst, "Supported Math Operators for NKI ISA"), arithmetic
// rows, in float32 (S2.1; NaN propagates through maximum/minimum). The bitvec
// rows act on bit patterns instead (bit_alu.hpp). The per-operator loops are
// one table indexed by the spec's enum value, so the switch is outside them.
#pragma once
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <utility>

#include "numbers_minifloat.hpp"
#include "reduction.hpp"
#include "step.hpp"

namespace nisa {

inline float truth(bool b) { return b ? 1.0f : 0.0f; }

// a op b in float32; a unary operator ignores b. Comparisons and the logical
// operators give 1.0 or 0.0 (NKI: "a tile with 1 where ..., 0 otherwise";
// logical inputs are true when nonzero, as NumPy's; a NaN is nonzero and
// compares false except with not_equal).
inline float alu(AluOp op, float a, float b) {
  switch (op) {
    case AluOp::bypass: return a;
    case AluOp::add: return a + b;
    case AluOp::subtract: return a - b;
    case AluOp::multiply: return a * b;
    case AluOp::maximum: return nan_max(a, b);
    case AluOp::minimum: return nan_min(a, b);
    case AluOp::equal: return truth(a == b);
    case AluOp::not_equal: return truth(a != b);
    case AluOp::less: return truth(a < b);
    case AluOp::less_equal: return truth(a <= b);
    case AluOp::greater: return truth(a > b);
    case AluOp::greater_equal: return truth(a >= b);
    case AluOp::logical_and: return truth(a != 0.0f && b != 0.0f);
    case AluOp::logical_or: return truth(a != 0.0f || b != 0.0f);
    case AluOp::logical_xor: return truth((a != 0.0f) != (b != 0.0f));
    // nl.power: numpy.power; in double, rounded once to float32.
    case AluOp::power: return static_cast<float>(std::pow(static_cast<double>(a), static_cast<double>(b)));
    // nl.abs_max / nl.abs_min: the input (with its sign) of larger / smaller
    // magnitude, b on a tie; a NaN input gives NaN (S2.1).
    case AluOp::abs_max: return (a != a || std::fabs(a) > std::fabs(b)) ? a : b;
    case AluOp::abs_min: return (a != a || std::fabs(a) < std::fabs(b)) ? a : b;
    // The unary rows ("Arithmetic Unary"): the second input is ignored.
    case AluOp::abs: return std::fabs(a);
    case AluOp::square: return a * a;
    case AluOp::relu: return a < 0.0f ? 0.0f : a;  // NaN stays NaN
    case AluOp::rsqrt: return static_cast<float>(1.0 / std::sqrt(static_cast<double>(a)));
    case AluOp::reciprocal: return 1.0f / a;
    // Bitvec operators never reach the float32 path: the decoders choose the
    // bit-pattern kernels for them (bit_alu.hpp).
    case AluOp::bitwise_and:
    case AluOp::bitwise_or:
    case AluOp::bitwise_xor:
    case AluOp::invert:
    case AluOp::left_shift:
    case AluOp::right_shift: return a;
  }
  return a;
}

// a + b or a * b, and when both are NaN, b's NaN (quieted). x86 returns the
// first source operand's NaN, and which operand becomes the first source is
// the compiler's choice: the loops below spell out the one GCC 12 -O3
// x86-64-v4 made (b first), so that every compiler and ISA level, and the
// AVX-512 kernels (simd::add_b_first), give the same bits.
template <AluOp Op>
inline float commutative_nan_b(float a, float b) {
  static_assert(Op == AluOp::add || Op == AluOp::multiply);
  const float r = Op == AluOp::add ? a + b : a * b;
  const uint32_t quiet_b = std::bit_cast<uint32_t>(b) | 0x00400000u;
  return std::bit_cast<float>(minifloat::select_bits((a != a) & (b != b), quiet_b, std::bit_cast<uint32_t>(r)));
}

// out[i] = op(a[i], b), or op(b, a[i]) when reverse (a unary op always
// applies to a[i]); bypass copies a.
template <AluOp Op>
void alu_scalar_loop(const float* a, float b, bool reverse, float* out, int64_t n) {
  if constexpr (Op == AluOp::bypass) {
    if (out != a)
      for (int64_t i = 0; i < n; ++i) out[i] = a[i];
  } else if constexpr (Op == AluOp::add || Op == AluOp::multiply) {
    // Commutative: reverse changes no value; the scalar's NaN wins either way.
    for (int64_t i = 0; i < n; ++i) out[i] = commutative_nan_b<Op>(a[i], b);
  } else if (reverse && !spec_enum::is_unary(Op)) {
    for (int64_t i = 0; i < n; ++i) out[i] = alu(Op, b, a[i]);
  } else {
    for (int64_t i = 0; i < n; ++i) out[i] = alu(Op, a[i], b);
  }
}

template <AluOp Op>
void alu_tensor_loop(const float* a, const float* b, float* out, int64_t n) {
  if constexpr (Op == AluOp::add || Op == AluOp::multiply) {
    for (int64_t i = 0; i < n; ++i) out[i] = commutative_nan_b<Op>(a[i], b[i]);
  } else {
    for (int64_t i = 0; i < n; ++i) out[i] = alu(Op, a[i], b[i]);
  }
}

namespace alu_detail {
using ScalarLoop = void (*)(const float*, float, bool, float*, int64_t);
using TensorLoop = void (*)(const float*, const float*, float*, int64_t);
template <std::size_t... I>
constexpr std::array<ScalarLoop, sizeof...(I)> scalar_loops(std::index_sequence<I...>) {
  return {&alu_scalar_loop<static_cast<AluOp>(I)>...};
}
template <std::size_t... I>
constexpr std::array<TensorLoop, sizeof...(I)> tensor_loops(std::index_sequence<I...>) {
  return {&alu_tensor_loop<static_cast<AluOp>(I)>...};
}
inline constexpr auto kScalarLoops = scalar_loops(std::make_index_sequence<spec_enum::alu_count>{});
inline constexpr auto kTensorLoops = tensor_loops(std::make_index_sequence<spec_enum::alu_count>{});
}  // namespace alu_detail

inline void alu_with_scalar(AluOp op, const float* a, float b, bool reverse, float* out, int64_t n) {
  alu_detail::kScalarLoops[static_cast<std::size_t>(op)](a, b, reverse, out, n);
}

inline void alu_with_tensor(AluOp op, const float* a, const float* b, float* out, int64_t n) {
  alu_detail::kTensorLoops[static_cast<std::size_t>(op)](a, b, out, n);
}

}  // namespace nisa
