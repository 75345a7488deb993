// select_reduce's step as its rule decodes it (select_reduce.cpp) and its
// AVX-512 kernel reads it (simd/select_reduce_avx512.cpp).
#pragma once

namespace nisa::select_reduce {

struct Params {
  bool reverse_pred;
};
enum : int { kOnFalse };  // Step::scalar

}  // namespace nisa::select_reduce
