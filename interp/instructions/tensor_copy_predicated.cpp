// tensor_copy_predicated dst, src, predicate, reverse_pred (Vector; seed 001,
// S4.2). Where predicate != 0 (== 0 with reverse_pred) dst = src; elsewhere
// dst keeps its bits. src and dst share a dtype, so the copy is of bits
// (S2.1); a scalar src is converted to dst's dtype once (an integer scalar for
// an integer tile exactly).
#include <cstring>
#include <type_traits>

#include "instructions.hpp"

namespace nisa {
namespace {

template <int64_t kSize>
using Bits = std::conditional_t<kSize == 1, uint8_t, std::conditional_t<kSize == 2, uint16_t, uint32_t>>;

// Contiguous rows: dst[i] = take ? src[i] : dst[i] as a select of bit
// patterns, eight elements at a time in vectors (GCC/Clang vector
// extensions; rewriting an unselected element with its own bits leaves it
// unchanged), so the predicate's width and dst's need not match for it to
// vectorise.
// Eight elements of kSize bytes as one vector (GCC/Clang vector extensions),
// unsigned (the bits) and signed (a compare's all-ones / zero result).
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

// Contiguous rows: dst[i] = take ? src[i] : dst[i] as a select of bit
// patterns, eight elements at a time (rewriting an unselected element with its
// own bits leaves it unchanged). The predicate's compare mask is widened or
// narrowed to dst's element size, so any pair of widths vectorises.
template <int64_t kSize, class Pred, bool kScalarSrc>
void blend_row(uint8_t* d, const uint8_t* pr, const uint8_t* sr, Bits<kSize> scalar, bool reverse, int64_t n) {
  using T = Bits<kSize>;
  using V = typename Lanes8<kSize>::bits;
  using M = typename Lanes8<kSize>::mask;
  using P = typename Lanes8<static_cast<int64_t>(sizeof(Pred))>::bits;
  constexpr int64_t kPred = static_cast<int64_t>(sizeof(Pred));
  V flip, sv;
  for (int k = 0; k < 8; ++k) flip[k] = reverse ? T(~T(0)) : T(0), sv[k] = scalar;
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    P pv;
    std::memcpy(&pv, pr + i * kPred, sizeof pv);
    const V take = reinterpret_cast<V>(__builtin_convertvector(pv != 0, M)) ^ flip;
    V dv;
    std::memcpy(&dv, d + i * kSize, sizeof dv);
    if constexpr (!kScalarSrc) std::memcpy(&sv, sr + i * kSize, sizeof sv);
    const V out = (sv & take) | (dv & ~take);
    std::memcpy(d + i * kSize, &out, sizeof out);
  }
  for (; i < n; ++i) {
    Pred pv;
    std::memcpy(&pv, pr + i * kPred, sizeof(Pred));
    if ((pv != 0) == reverse) continue;
    std::memcpy(d + i * kSize, kScalarSrc ? reinterpret_cast<const uint8_t*>(&scalar) : sr + i * kSize, kSize);
  }
}

template <int64_t kSize, class Pred, bool kScalarSrc>
void run(const Step& s, Machine&) {
  const TileAccess& dst = *s.dst;
  const TileAccess& pred = *s.in[0];
  const TileAccess& src = kScalarSrc ? pred : *s.in[1];  // not read with a scalar src
  const bool reverse = s.flag0;
  uint8_t scalar[kSize];
  std::memcpy(scalar, &s.bits, kSize);
  Bits<kSize> scalar_bits;
  std::memcpy(&scalar_bits, &s.bits, kSize);
  const bool contiguous = dst.element_stride == kSize && pred.element_stride == static_cast<int64_t>(sizeof(Pred)) &&
                          (kScalarSrc || src.element_stride == kSize);
  for (int64_t p = 0; p < s.partitions; ++p)
    for (int64_t r = 0; r < s.rows(); ++r) {
      const auto ri = static_cast<std::size_t>(r);
      uint8_t* d = dst.partition(p) + dst.row_offsets[ri];
      const uint8_t* pr = pred.partition(p) + pred.row_offsets[ri];
      const uint8_t* sr = kScalarSrc ? scalar : src.partition(p) + src.row_offsets[ri];
      if (contiguous) {
        blend_row<kSize, Pred, kScalarSrc>(d, pr, sr, scalar_bits, reverse, s.row_length);
        continue;
      }
      for (int64_t i = 0; i < s.row_length; ++i) {
        Pred pv;
        std::memcpy(&pv, pr + i * pred.element_stride, sizeof(Pred));
        if ((pv != 0) == reverse) continue;
        std::memcpy(d + i * dst.element_stride, kScalarSrc ? scalar : sr + i * src.element_stride, kSize);
      }
    }
}

template <int64_t kSize, class Pred>
Kernel pick(bool scalar_src) {
  return scalar_src ? &run<kSize, Pred, true> : &run<kSize, Pred, false>;
}

template <int64_t kSize>
Kernel pick(int64_t predicate_size, bool scalar_src) {
  switch (predicate_size) {
    case 1: return pick<kSize, uint8_t>(scalar_src);
    case 2: return pick<kSize, uint16_t>(scalar_src);
    default: return pick<kSize, uint32_t>(scalar_src);
  }
}

}  // namespace

void decode_tensor_copy_predicated(const DecodeContext& c, Step& s) {
  const bool scalar_src = !c.is_tile("src");
  if (scalar_src) {
    stream_tiles(c, s, c.tile("dst"), {c.tile("predicate")}, /*reads_dst=*/true);
    s.bits = c.integer_valued("src") ? bits_from_i64(s.dst->dtype, c.integer("src"))
                                     : bits_from_f32(s.dst->dtype, c.scalar("src"));
  } else {
    stream_tiles(c, s, c.tile("dst"), {c.tile("predicate"), c.tile("src")}, /*reads_dst=*/true);
  }
  s.flag0 = c.boolean("reverse_pred");
  s.predicated = true;
  const int64_t psize = s.in[0]->element_size;
  switch (s.dst->element_size) {
    case 1: s.run = pick<1>(psize, scalar_src); break;
    case 2: s.run = pick<2>(psize, scalar_src); break;
    default: s.run = pick<4>(psize, scalar_src); break;
  }
}

}  // namespace nisa
