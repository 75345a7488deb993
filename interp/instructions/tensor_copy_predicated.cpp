// tensor_copy_predicated dst, src, predicate, reverse_pred (Vector; S4.2,
// S4.2). Where predicate != 0 (== 0 with reverse_pred) dst = src; elsewhere
// dst keeps its bits. src and dst share a dtype, so the copy is of bits
// (S2.1); a scalar src is converted to dst's dtype once (an integer scalar for
// an integer tile exactly).
#include <cstring>
#include <type_traits>

#include "fast_kernels.hpp"
#include "simd_lanes.hpp"

#include "predicated_select.hpp"
#include "instructions.hpp"

namespace nisa {
namespace {
namespace slot = spec_operand::tensor_copy_predicated;

struct Params {
  bool reverse_pred;
  uint32_t bits;  // a scalar src as dst's bits
};

template <int64_t kSize, class Pred, bool kScalarSrc>
void run(const Step& s, Machine&) {
  const TileAccess& dst = *s.dst;
  const TileAccess& pred = *s.in[0];
  const TileAccess& src = kScalarSrc ? pred : *s.in[1];  // not read with a scalar src
  const Params& k = s.params<Params>();
  const bool reverse = k.reverse_pred;
  uint8_t scalar[kSize];
  std::memcpy(scalar, &k.bits, kSize);
  Bits<kSize> scalar_bits;
  std::memcpy(&scalar_bits, &k.bits, kSize);
  const bool contiguous = dst.element_stride == kSize && pred.element_stride == static_cast<int64_t>(sizeof(Pred)) &&
                          (kScalarSrc || src.element_stride == kSize);
  for (int64_t p = 0; p < s.partitions; ++p)
    for (int64_t r = 0; r < s.rows(); ++r) {
      const auto ri = static_cast<std::size_t>(r);
      uint8_t* d = dst.partition(p) + dst.row_offsets[ri];
      const uint8_t* pr = pred.partition(p) + pred.row_offsets[ri];
      const uint8_t* sr = kScalarSrc ? scalar : src.partition(p) + src.row_offsets[ri];
      if (contiguous) {
        // dst = take ? src : dst (an unselected element is rewritten with its own bits)
        select_row<kSize, Pred, kScalarSrc, false>(d, pr, sr, scalar_bits, d, 0, reverse, s.row_length);
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

#if NISA_HAS_AVX512_KERNELS
// run's contiguous case with a 1-byte predicate as AVX-512 masked stores:
// the predicate bytes compare to zero straight into the store mask, and
// unselected elements are not written at all (run rewrites them with their
// own bits: the same memory).
template <int64_t kSize, bool kScalarSrc>
NISA_AVX512 void run_masked(const Step& s, Machine&) {
  static_assert(kSize == 2 || kSize == 4);
  constexpr int64_t kLanes = 64 / kSize;  // elements per vector
  using Mask = std::conditional_t<kSize == 4, __mmask16, __mmask32>;
  const TileAccess& dst = *s.dst;
  const TileAccess& pred = *s.in[0];
  const TileAccess& src = kScalarSrc ? pred : *s.in[1];
  const Params& k = s.params<Params>();
  const auto flip = static_cast<Mask>(k.reverse_pred ? ~0u : 0u);
  const __m512i scalar = kSize == 4 ? _mm512_set1_epi32(static_cast<int>(k.bits))
                                    : _mm512_set1_epi16(static_cast<short>(k.bits));
  const int64_t n = s.row_length;
  for (int64_t p = 0; p < s.partitions; ++p)
    for (int64_t r = 0; r < s.rows(); ++r) {
      const auto ri = static_cast<std::size_t>(r);
      uint8_t* d = dst.partition(p) + dst.row_offsets[ri];
      const uint8_t* pr = pred.partition(p) + pred.row_offsets[ri];
      const uint8_t* sr = kScalarSrc ? nullptr : src.partition(p) + src.row_offsets[ri];
      for (int64_t i = 0; i < n; i += kLanes) {
        const int64_t count = n - i < kLanes ? n - i : kLanes;
        const auto live = static_cast<Mask>(count == kLanes ? ~uint64_t{0} : (uint64_t{1} << count) - 1);
        Mask take;
        if constexpr (kSize == 4) {
          take = _mm_cmpneq_epi8_mask(_mm_maskz_loadu_epi8(live, pr + i), _mm_setzero_si128());
        } else {
          take = _mm256_cmpneq_epi8_mask(_mm256_maskz_loadu_epi8(live, pr + i), _mm256_setzero_si256());
        }
        take = static_cast<Mask>((take ^ flip) & live);
        if (take == 0) continue;  // dst keeps every element: nothing to touch
        if (count == kLanes) {
          // A whole vector: stored whole, never with a masked store (one
          // with holes is several times slower on some cores); unselected
          // elements are rewritten with their own bits. An all-selected
          // vector needs no read of dst.
          const __m512i v = kScalarSrc ? scalar : _mm512_loadu_si512(sr + i * kSize);
          if (take == static_cast<Mask>(~uint64_t{0})) {
            _mm512_storeu_si512(d + i * kSize, v);
            continue;
          }
          const __m512i old = _mm512_loadu_si512(d + i * kSize);
          if constexpr (kSize == 4) {
            _mm512_storeu_si512(d + i * kSize, _mm512_mask_blend_epi32(take, old, v));
          } else {
            _mm512_storeu_si512(d + i * kSize, _mm512_mask_blend_epi16(take, old, v));
          }
        } else if constexpr (kSize == 4) {
          const __m512i v = kScalarSrc ? scalar : _mm512_maskz_loadu_epi32(take, sr + i * kSize);
          _mm512_mask_storeu_epi32(d + i * kSize, take, v);
        } else {
          const __m512i v = kScalarSrc ? scalar : _mm512_maskz_loadu_epi16(take, sr + i * kSize);
          _mm512_mask_storeu_epi16(d + i * kSize, take, v);
        }
      }
    }
}

// run_masked when the step suits it: contiguous rows, a 1-byte predicate,
// 2- or 4-byte elements.
Kernel masked_kernel(const Step& s, bool scalar_src) {
  if (!fast_kernels_enabled() || s.in[0]->element_size != 1 || !s.in[0]->unit_stride() || !s.dst->unit_stride() ||
      (!scalar_src && !s.in[1]->unit_stride()))
    return nullptr;
  switch (s.dst->element_size) {
    case 4: return scalar_src ? &run_masked<4, true> : &run_masked<4, false>;
    case 2: return scalar_src ? &run_masked<2, true> : &run_masked<2, false>;
    default: return nullptr;
  }
}
#endif

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

void decode(const DecodeContext& c, Step& s) {
  const bool scalar_src = !c.is_tile(slot::src);
  if (scalar_src) {
    stream_tiles(c, s, c.tile(slot::dst), {c.tile(slot::predicate)}, /*reads_dst=*/true);
  } else {
    stream_tiles(c, s, c.tile(slot::dst), {c.tile(slot::predicate), c.tile(slot::src)}, /*reads_dst=*/true);
  }
  s.set_params(Params{c.boolean(slot::reverse_pred), scalar_src ? c.scalar_bits(slot::src, s.dst->dtype) : 0u});
  const int64_t psize = s.in[0]->element_size;
  switch (s.dst->element_size) {
    case 1: s.run = pick<1>(psize, scalar_src); break;
    case 2: s.run = pick<2>(psize, scalar_src); break;
    default: s.run = pick<4>(psize, scalar_src); break;
  }
#if NISA_HAS_AVX512_KERNELS
  if (Kernel masked = masked_kernel(s, scalar_src)) s.run = masked;
#endif
}

// --strict: only the selected elements are written (S4.2); their addresses,
// taken before the step runs (dst may overlap the predicate).
void selected_elements(const Step& s, std::vector<uint8_t*>& out) {
  const TileAccess& pred = *s.in[0];
  const TileAccess& dst = s.staged ? *s.final_dst : *s.dst;
  const bool reverse = s.params<Params>().reverse_pred;
  for_each_element(dst, 1, [&](int64_t p, int64_t i, const uint8_t* address) {
    const uint8_t* pa = pred.partition(p) + pred.row_offsets[static_cast<std::size_t>(i / pred.row_length)] +
                        (i % pred.row_length) * pred.element_stride;
    uint32_t v = 0;
    std::memcpy(&v, pa, static_cast<std::size_t>(pred.element_size));  // little-endian: the low bytes
    if ((v != 0) != reverse) out.push_back(const_cast<uint8_t*>(address));
  });
}

}  // namespace

const InstructionSemantics tensor_copy_predicated_semantics{decode, {.written_elements = selected_elements}};

}  // namespace nisa
