#include "lanes.hpp"

#include <cstring>

#include "numbers.hpp"

namespace nisa {
namespace {

// Unit-stride loops are separate instantiations so the compiler can vectorise
// the contiguous case (the common one: whole SBUF tiles).
template <class E>
void load_elements(const uint8_t* src, int64_t stride, int64_t n, float* out) {
  using S = typename E::storage;
  if (stride == static_cast<int64_t>(sizeof(S))) {
    for (int64_t i = 0; i < n; ++i) {
      S s;
      std::memcpy(&s, src + i * static_cast<int64_t>(sizeof(S)), sizeof(S));
      out[i] = E::to_f32(s);
    }
    return;
  }
  for (int64_t i = 0; i < n; ++i) {
    S s;
    std::memcpy(&s, src + i * stride, sizeof(S));
    out[i] = E::to_f32(s);
  }
}

template <class E>
void store_elements(uint8_t* dst, int64_t stride, int64_t n, const float* in) {
  using S = typename E::storage;
  if (stride == static_cast<int64_t>(sizeof(S))) {
    for (int64_t i = 0; i < n; ++i) {
      const S s = E::from_f32(in[i]);
      std::memcpy(dst + i * static_cast<int64_t>(sizeof(S)), &s, sizeof(S));
    }
    return;
  }
  for (int64_t i = 0; i < n; ++i) {
    const S s = E::from_f32(in[i]);
    std::memcpy(dst + i * stride, &s, sizeof(S));
  }
}

template <class S>
uint32_t widen_bits(S s) {
  uint32_t bits = 0;
  std::memcpy(&bits, &s, sizeof(S));  // little-endian host: low bytes
  return bits;
}

}  // namespace

LoadLanes load_lanes_for(Dtype t) {
  return dispatch_dtype(t, [](auto e) -> LoadLanes { return &load_elements<decltype(e)>; });
}

StoreLanes store_lanes_for(Dtype t) {
  return dispatch_dtype(t, [](auto e) -> StoreLanes { return &store_elements<decltype(e)>; });
}

uint32_t bits_from_f32(Dtype t, float v) {
  return dispatch_dtype(t, [&](auto e) -> uint32_t { return widen_bits(decltype(e)::from_f32(v)); });
}

uint32_t bits_from_i64(Dtype t, int64_t v) {
  return dispatch_dtype(t, [&](auto e) -> uint32_t { return widen_bits(decltype(e)::from_i64(v)); });
}

}  // namespace nisa
