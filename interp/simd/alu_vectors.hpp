// The arithmetic ALU operators of alu.hpp that the fused AVX-512 loop runs
// (fused_lane_loop.hpp), 16 float32 lanes at a time, bit for bit as alu():
// the same IEEE operation with the operands in the same order (which picks
// the NaN payload when both are NaN), and maximum/minimum as the same
// compare-and-select (S2.1: a NaN `a` wins, else b on a tie).
#pragma once
#include "alu.hpp"
#include "fast_kernels.hpp"
#include "simd_lanes.hpp"

#if NISA_HAS_AVX512_KERNELS
#include "avx512_intrinsics.hpp"

namespace nisa {

inline bool alu_vectorises(AluOp op) {
  switch (op) {
    case AluOp::bypass:
    case AluOp::add:
    case AluOp::subtract:
    case AluOp::multiply:
    case AluOp::maximum:
    case AluOp::minimum: return true;
    default: return false;
  }
}

// alu(op, a, b) for an op that alu_vectorises.
NISA_AVX512_INLINE __m512 alu16(AluOp op, __m512 a, __m512 b) {
  switch (op) {
    case AluOp::add: return simd::add_b_first(a, b);
    case AluOp::subtract: return _mm512_sub_ps(a, b);
    case AluOp::multiply: return simd::multiply_b_first(a, b);
    case AluOp::maximum:  // nan_max: (a != a || a > b) ? a : b
      return _mm512_mask_mov_ps(b, _mm512_cmp_ps_mask(a, b, _CMP_GT_OQ) | _mm512_cmp_ps_mask(a, a, _CMP_UNORD_Q), a);
    case AluOp::minimum:
      return _mm512_mask_mov_ps(b, _mm512_cmp_ps_mask(a, b, _CMP_LT_OQ) | _mm512_cmp_ps_mask(a, a, _CMP_UNORD_Q), a);
    default: return a;  // bypass
  }
}

// One stage of alu_scalar_loop: op(a, b), or op(b, a) when reverse; bypass
// keeps a. add and multiply commute in value, and the portable loop has the
// scalar b as first source either way (its NaN wins over a NaN a).
NISA_AVX512_INLINE __m512 alu16_with_scalar(AluOp op, __m512 a, __m512 b, bool reverse) {
  if (op == AluOp::bypass) return a;
  const bool swap = reverse && op != AluOp::add && op != AluOp::multiply;
  return swap ? alu16(op, b, a) : alu16(op, a, b);
}

}  // namespace nisa
#endif
