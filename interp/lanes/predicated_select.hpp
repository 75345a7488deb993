// Selecting bit patterns under a predicate, eight elements at a time in
// vectors (GCC/Clang vector extensions): out[i] = take(i) ? a[i] : b[i], where
// take(i) = (pred[i] != 0) != reverse, and a, b are contiguous rows of
// kSize-byte elements or one broadcast value. The predicate's compare mask is
// widened or narrowed to the elements' size, so any pair of widths
// vectorises. Shared by tensor_copy_predicated (S4.2: b is dst itself) and
// select_reduce (S4.3: a is on_true, b the on_false value).
#pragma once
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace nisa {

template <int64_t kSize>
using Bits = std::conditional_t<kSize == 1, uint8_t, std::conditional_t<kSize == 2, uint16_t, uint32_t>>;

// Eight elements of kSize bytes as one vector, unsigned (the bits) and
// signed (a compare's all-ones / zero result).
template <int64_t kSize>
struct Lanes8;
template <>
struct Lanes8<1> {
  using bits = uint8_t __attribute__((vector_size(8)));
  using mask = int8_t __attribute__((vector_size(8)));
};
template <>
struct Lanes8<2> {
  using bits = uint16_t __attribute__((vector_size(16)));
  using mask = int16_t __attribute__((vector_size(16)));
};
template <>
struct Lanes8<4> {
  using bits = uint32_t __attribute__((vector_size(32)));
  using mask = int32_t __attribute__((vector_size(32)));
};

// One row of n elements; a/b are ignored when kScalarA/kScalarB (the values
// a_value/b_value are used). out may be a or b (elementwise in place).
template <int64_t kSize, class Pred, bool kScalarA, bool kScalarB>
void select_row(uint8_t* out, const uint8_t* pred, const uint8_t* a, Bits<kSize> a_value, const uint8_t* b,
                Bits<kSize> b_value, bool reverse, int64_t n) {
  using T = Bits<kSize>;
  using V = typename Lanes8<kSize>::bits;
  using M = typename Lanes8<kSize>::mask;
  using P = typename Lanes8<static_cast<int64_t>(sizeof(Pred))>::bits;
  constexpr int64_t kPred = static_cast<int64_t>(sizeof(Pred));
  V flip, av, bv;
  for (int k = 0; k < 8; ++k) flip[k] = reverse ? T(~T(0)) : T(0), av[k] = a_value, bv[k] = b_value;
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    P pv;
    std::memcpy(&pv, pred + i * kPred, sizeof pv);
    const V take = reinterpret_cast<V>(__builtin_convertvector(pv != 0, M)) ^ flip;
    if constexpr (!kScalarA) std::memcpy(&av, a + i * kSize, sizeof av);
    if constexpr (!kScalarB) std::memcpy(&bv, b + i * kSize, sizeof bv);
    const V selected = (av & take) | (bv & ~take);
    std::memcpy(out + i * kSize, &selected, sizeof selected);
  }
  for (; i < n; ++i) {
    Pred pv;
    std::memcpy(&pv, pred + i * kPred, sizeof(Pred));
    const bool take = (pv != 0) != reverse;
    T v;
    if (take) {
      if constexpr (kScalarA) v = a_value;
      else std::memcpy(&v, a + i * kSize, kSize);
    } else {
      if constexpr (kScalarB) v = b_value;
      else std::memcpy(&v, b + i * kSize, kSize);
    }
    std::memcpy(out + i * kSize, &v, kSize);
  }
}

}  // namespace nisa
