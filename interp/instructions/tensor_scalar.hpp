// tensor_scalar's step as its rule decodes it (tensor_scalar.cpp) and its
// AVX-512 kernels read it (simd/tensor_scalar_avx512.cpp).
#pragma once
#include "step.hpp"

namespace nisa::tensor_scalar {

struct Params {
  AluOp op0, op1;
  bool reverse0, reverse1;
};
enum : int { kOperand0, kOperand1 };  // Step::scalar

}  // namespace nisa::tensor_scalar
