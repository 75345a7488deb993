// select_reduce's AVX-512 kernel (select_reduce_avx512.cpp), chosen at
// pre-decode by its rule (instructions/select_reduce.cpp).
#pragma once
#include "step.hpp"

namespace nisa {

// The fused kernel for a decoded select_reduce step when it suits (fast
// kernels enabled, a 1-byte u8/i8 predicate, on_true and dst both f32 or
// both bf16, unit strides), else nullptr (always, in a build without
// AVX-512 kernels). whole_rows: the portable kernel is the rule's
// run_contiguous, which folds whole rows (else lane-loop batches).
Kernel select_reduce_avx512_kernel(const Step& s, bool whole_rows);

}  // namespace nisa
