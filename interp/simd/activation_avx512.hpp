// activation's AVX-512 kernel for op exp (activation_avx512.cpp), chosen at
// pre-decode by its rule (instructions/activation.cpp).
#pragma once
#include "step.hpp"

namespace nisa {

// The fused kernel for a decoded activation step when it suits (fast
// kernels enabled, op exp, data and dst f32 or bf16, unit strides, no
// reduction or an add with dst apart from data), else nullptr (always, in a
// build without AVX-512 kernels).
Kernel activation_avx512_kernel(const Step& s);

}  // namespace nisa
