// tensor_copy_predicated's step as its rule decodes it
// (tensor_copy_predicated.cpp) and its AVX-512 kernel reads it
// (simd/tensor_copy_predicated_avx512.cpp).
#pragma once
#include <cstdint>

namespace nisa::tensor_copy_predicated {

struct Params {
  bool reverse_pred;
  uint32_t bits;  // a scalar src as dst's bits
};

}  // namespace nisa::tensor_copy_predicated
