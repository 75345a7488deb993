// tensor_copy_predicated's AVX-512 kernel (tensor_copy_predicated_avx512.cpp),
// chosen at pre-decode by its rule (instructions/tensor_copy_predicated.cpp).
#pragma once
#include "step.hpp"

namespace nisa {

// The masked kernel for a decoded tensor_copy_predicated step when it suits
// (fast kernels enabled, contiguous rows, a 1-byte predicate, 2- or 4-byte
// elements), else nullptr (always, in a build without AVX-512 kernels).
Kernel tensor_copy_predicated_avx512_kernel(const Step& s, bool scalar_src);

}  // namespace nisa
