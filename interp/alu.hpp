// The ALU operations of tensor_scalar, tensor_tensor and activate2, over
// batches of float32 lanes (S2.1: float32 arithmetic; NaN propagates through
// maximum/minimum). The switch is outside the loops.
#pragma once
#include <cstdint>

#include "reduction.hpp"
#include "step.hpp"

namespace nisa {

inline float alu(AluOp op, float a, float b) {
  switch (op) {
    case AluOp::bypass: return a;
    case AluOp::add: return a + b;
    case AluOp::subtract: return a - b;
    case AluOp::multiply: return a * b;
    case AluOp::maximum: return nan_max(a, b);
    case AluOp::minimum: return nan_min(a, b);
  }
  return a;
}

// out[i] = op(a[i], b), or op(b, a[i]) when reverse; bypass copies a.
template <AluOp Op>
void alu_scalar_loop(const float* a, float b, bool reverse, float* out, int64_t n) {
  if (reverse) {
    for (int64_t i = 0; i < n; ++i) out[i] = alu(Op, b, a[i]);
  } else {
    for (int64_t i = 0; i < n; ++i) out[i] = alu(Op, a[i], b);
  }
}

inline void alu_with_scalar(AluOp op, const float* a, float b, bool reverse, float* out, int64_t n) {
  switch (op) {
    case AluOp::bypass:
      if (out != a)
        for (int64_t i = 0; i < n; ++i) out[i] = a[i];
      return;
    case AluOp::add: return alu_scalar_loop<AluOp::add>(a, b, reverse, out, n);
    case AluOp::subtract: return alu_scalar_loop<AluOp::subtract>(a, b, reverse, out, n);
    case AluOp::multiply: return alu_scalar_loop<AluOp::multiply>(a, b, reverse, out, n);
    case AluOp::maximum: return alu_scalar_loop<AluOp::maximum>(a, b, reverse, out, n);
    case AluOp::minimum: return alu_scalar_loop<AluOp::minimum>(a, b, reverse, out, n);
  }
}

template <AluOp Op>
void alu_tensor_loop(const float* a, const float* b, float* out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) out[i] = alu(Op, a[i], b[i]);
}

inline void alu_with_tensor(AluOp op, const float* a, const float* b, float* out, int64_t n) {
  switch (op) {
    case AluOp::bypass: return alu_tensor_loop<AluOp::bypass>(a, b, out, n);
    case AluOp::add: return alu_tensor_loop<AluOp::add>(a, b, out, n);
    case AluOp::subtract: return alu_tensor_loop<AluOp::subtract>(a, b, out, n);
    case AluOp::multiply: return alu_tensor_loop<AluOp::multiply>(a, b, out, n);
    case AluOp::maximum: return alu_tensor_loop<AluOp::maximum>(a, b, out, n);
    case AluOp::minimum: return alu_tensor_loop<AluOp::minimum>(a, b, out, n);
  }
}

}  // namespace nisa
