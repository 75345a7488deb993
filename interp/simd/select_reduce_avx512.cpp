// select_reduce's AVX-512 kernel: the rule's portable kernels (Body and
// run_contiguous in instructions/select_reduce.cpp) in one pass per 32
// elements, the same bits.
#include "select_reduce_avx512.hpp"

#include <cstring>

#include "fused_lane_loop.hpp"
#include "numbers.hpp"
#include "select_reduce.hpp"

namespace nisa {

#if NISA_HAS_AVX512_KERNELS
namespace {
using namespace select_reduce;

// The portable kernels in one pass per 32 elements (AVX-512) for a 1-byte
// predicate and on_true, dst both f32 or both bf16: the predicate's bytes
// compare to zero straight into a mask; f32 values are selected as bits
// (as run_contiguous); bf16 codes are selected as codes (on_true's through
// float32 and back: only NaNs change; on_false narrowed once), while the
// fold takes the float32 values. Fold segments as the portable kernel's:
// whole rows for run_contiguous (kWholeRows), else lane-loop batches.
// fold(maximum, r, ...) over a segment's results in the portable order
// (a zero maximum): f32 dst holds them as they are; bf16 dst holds on_true's
// codes (widened: the same values, NaNs aside, which give NaN anyway)
// where the predicate takes on_true, else on_false's float32.
template <simd::Kind K>
float exact_fold(float r, const uint8_t* pred, const uint8_t* out, float on_false, bool reverse, int64_t n) {
  if constexpr (K == simd::Kind::f32) {
    if (reinterpret_cast<uintptr_t>(out) % alignof(float) == 0)  // whole rows are aligned (reads_in_place)
      return fold(ReduceOp::maximum, r, reinterpret_cast<const float*>(out), n);
    float values[kLaneBatch];  // an unaligned dst: batches
    std::memcpy(values, out, static_cast<std::size_t>(n) * sizeof(float));
    return fold(ReduceOp::maximum, r, values, n);
  } else {
    float values[kLaneBatch];
    for (int64_t j = 0; j < n; ++j) {
      uint16_t code;
      std::memcpy(&code, out + 2 * j, 2);
      values[j] = (pred[j] == 0) != reverse ? on_false : Element<Dtype::bf16>::to_f32(code);
    }
    return fold(ReduceOp::maximum, r, values, n);
  }
}

template <simd::Kind K, bool kFolds, bool kWholeRows>
NISA_AVX512 void run_fused(const Step& s, Machine& m) {
  constexpr int64_t size = simd::kind_size(K);
  const uint32_t flip = s.params<Params>().reverse_pred ? ~0u : 0u;
  const int64_t rows = s.rows(), length = s.row_length;
  const int64_t segment = kWholeRows ? length : kLaneBatch;
  for (int64_t p = 0; p < s.partitions; ++p) {
    const float on_false = s.scalar[kOnFalse].at(p);
    const __m512 false16 = _mm512_set1_ps(on_false);
    const __m512i false_codes = _mm512_set1_epi16(static_cast<short>(Element<Dtype::bf16>::from_f32(on_false)));
    float r = fold_start(ReduceOp::maximum);
    for (int64_t row = 0; row < rows; ++row) {
      const auto ri = static_cast<std::size_t>(row);
      const uint8_t* pred = s.in[0]->partition(p) + s.in[0]->row_offsets[ri];
      const uint8_t* on_true = s.in[1]->partition(p) + s.in[1]->row_offsets[ri];
      uint8_t* out = s.dst->partition(p) + s.dst->row_offsets[ri];
      for (int64_t c = 0; c < length; c += segment) {
        const int64_t n = length - c < segment ? length - c : segment;
        simd::MaxValue maximum = simd::max_value(r);
        int64_t i = c;
        for (; i + 32 <= c + n; i += 32) {
          const __m256i bytes = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(pred + i));
          const uint32_t takes_false = _mm256_cmpeq_epi8_mask(bytes, _mm256_setzero_si256()) ^ flip;
          const auto first = static_cast<__mmask16>(takes_false), last = static_cast<__mmask16>(takes_false >> 16);
          __m512 lo, hi;
          if constexpr (K == simd::Kind::bf16) {
            const __m512i codes = _mm512_loadu_si512(on_true + i * size);
            _mm512_storeu_si512(out + i * size, _mm512_mask_mov_epi16(simd::canonical_bf16(codes), takes_false, false_codes));
            lo = _mm512_mask_mov_ps(simd::widen_bf16_first(codes), first, false16);
            hi = _mm512_mask_mov_ps(simd::widen_bf16_last(codes), last, false16);
          } else {
            lo = _mm512_mask_mov_ps(_mm512_loadu_ps(on_true + i * size), first, false16);
            hi = _mm512_mask_mov_ps(_mm512_loadu_ps(on_true + (i + 16) * size), last, false16);
            _mm512_storeu_ps(out + i * size, lo);
            _mm512_storeu_ps(out + (i + 16) * size, hi);
          }
          if (kFolds) simd::add_max(maximum, lo, hi);
        }
        for (; i < c + n; i += 16) {
          const __mmask16 mask = simd::first_lanes(c + n - i);
          const __m128i bytes = _mm_maskz_loadu_epi8(mask, pred + i);
          const auto takes_false = static_cast<__mmask16>(_mm_cmpeq_epi8_mask(bytes, _mm_setzero_si128()) ^ flip);
          const __m512 v = _mm512_mask_mov_ps(simd::load16<K>(on_true + i * size, mask), takes_false, false16);
          simd::store16<K>(out + i * size, v, mask);
          if (kFolds) simd::add_max(maximum, v, mask);
        }
        if (kFolds) {
          bool exact = false;
          const float quick = simd::max_result(r, maximum, exact);
          r = exact ? exact_fold<K>(r, pred + c, out + c * size, on_false, flip != 0, n) : quick;
        }
      }
    }
    update_accumulator(s, m, p, r);
  }
}

template <simd::Kind K>
Kernel fused_kernel(bool folds, bool whole_rows) {
  if (whole_rows) return folds ? &run_fused<K, true, true> : &run_fused<K, false, true>;
  return folds ? &run_fused<K, true, false> : &run_fused<K, false, false>;
}

}  // namespace

// The fused kernel when the step suits it. whole_rows: the portable kernel
// is run_contiguous, which folds whole rows.
Kernel select_reduce_avx512_kernel(const Step& s, bool whole_rows) {
  if (!fused_loop_fits(s) || s.in[1]->dtype != s.dst->dtype || s.in[0]->element_size != 1) return nullptr;
  if (s.in[0]->dtype != Dtype::u8 && s.in[0]->dtype != Dtype::i8) return nullptr;
  if (s.dst->dtype == Dtype::f32) return fused_kernel<simd::Kind::f32>(folds_result(s), whole_rows);
  if (s.dst->dtype == Dtype::bf16) return fused_kernel<simd::Kind::bf16>(folds_result(s), whole_rows);
  return nullptr;
}
#else
Kernel select_reduce_avx512_kernel(const Step&, bool) { return nullptr; }
#endif

}  // namespace nisa
