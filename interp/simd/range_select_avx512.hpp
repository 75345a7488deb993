// range_select's AVX-512 kernel (range_select_avx512.cpp), chosen at
// pre-decode by its rule (instructions/range_select.cpp).
#pragma once
#include "step.hpp"

namespace nisa {

// The fused kernel for a decoded range_select step when it suits (fast
// kernels enabled, on_true and dst both f32 or both bf16, unit strides:
// fused_loop_fits), else nullptr (always, in a build without AVX-512 kernels).
Kernel range_select_avx512_kernel(const Step& s);

}  // namespace nisa
