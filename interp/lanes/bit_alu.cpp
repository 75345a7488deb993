#include "bit_alu.hpp"

#include <cstring>

namespace nisa {
namespace {

template <class S>
void load_bits(const uint8_t* src, int64_t stride, int64_t n, uint32_t* out) {
  for (int64_t i = 0; i < n; ++i) {
    S s;
    std::memcpy(&s, src + i * stride, sizeof(S));
    out[i] = s;  // unsigned S: zero-extended
  }
}

template <class S>
void store_bits(uint8_t* dst, int64_t stride, int64_t n, const uint32_t* in) {
  for (int64_t i = 0; i < n; ++i) {
    const auto s = static_cast<S>(in[i]);  // the low bits of dst's width
    std::memcpy(dst + i * stride, &s, sizeof(S));
  }
}

}  // namespace

LoadBits load_bits_for(Dtype t) {
  switch (dtype_size(t)) {
    case 1: return load_bits<uint8_t>;
    case 2: return load_bits<uint16_t>;
    default: return load_bits<uint32_t>;
  }
}

StoreBits store_bits_for(Dtype t) {
  switch (dtype_size(t)) {
    case 1: return store_bits<uint8_t>;
    case 2: return store_bits<uint16_t>;
    default: return store_bits<uint32_t>;
  }
}

}  // namespace nisa
