// tensor_tensor's AVX-512 kernels (tensor_tensor_avx512.cpp), chosen at
// pre-decode by its rule (instructions/tensor_tensor.cpp).
#pragma once
#include "step.hpp"

namespace nisa {

// The fused kernel for a decoded tensor_tensor step with operator op when it
// suits (fast kernels enabled, all three tiles f32 or all bf16, unit
// strides, op add/subtract/multiply/maximum/minimum), else nullptr (always,
// in a build without AVX-512 kernels).
Kernel tensor_tensor_avx512_kernel(const Step& s, AluOp op);

}  // namespace nisa
