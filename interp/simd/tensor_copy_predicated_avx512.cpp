// tensor_copy_predicated's AVX-512 kernel: the rule's contiguous case
// (run in instructions/tensor_copy_predicated.cpp) as masked stores, the
// same memory afterwards.
#include "tensor_copy_predicated_avx512.hpp"

#include <type_traits>

#include "fast_kernels.hpp"
#include "simd_lanes.hpp"
#include "tensor_copy_predicated.hpp"

namespace nisa {

#if NISA_HAS_AVX512_KERNELS
namespace {
using namespace tensor_copy_predicated;

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

}  // namespace

// run_masked when the step suits it: contiguous rows, a 1-byte predicate,
// 2- or 4-byte elements.
Kernel tensor_copy_predicated_avx512_kernel(const Step& s, bool scalar_src) {
  if (!fast_kernels_enabled() || s.in[0]->element_size != 1 || !s.in[0]->unit_stride() || !s.dst->unit_stride() ||
      (!scalar_src && !s.in[1]->unit_stride()))
    return nullptr;
  switch (s.dst->element_size) {
    case 4: return scalar_src ? &run_masked<4, true> : &run_masked<4, false>;
    case 2: return scalar_src ? &run_masked<2, true> : &run_masked<2, false>;
    default: return nullptr;
  }
}
#else
Kernel tensor_copy_predicated_avx512_kernel(const Step&, bool) { return nullptr; }
#endif

}  // namespace nisa
