// tensor_scalar's AVX-512 kernels (tensor_scalar_avx512.cpp), chosen at
// pre-decode by its rule (instructions/tensor_scalar.cpp).
#pragma once
#include "step.hpp"

namespace nisa {

// The fused kernel for a decoded tensor_scalar step with arithmetic
// operators when it suits (fast kernels enabled, data and dst both f32 or
// both bf16, unit strides, both operators bypass/add/subtract/multiply/
// maximum/minimum), else nullptr (always, in a build without AVX-512
// kernels).
Kernel tensor_scalar_avx512_kernel(const Step& s);

}  // namespace nisa
