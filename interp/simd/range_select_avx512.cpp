// range_select's AVX-512 kernel: the rule's lane loop (Body in
// instructions/range_select.cpp) in one pass per batch, the same bits.
#include "range_select_avx512.hpp"

#include <algorithm>
#include <cstring>

#include "fused_lane_loop.hpp"
#include "numbers.hpp"
#include "range_select.hpp"

namespace nisa {

#if NISA_HAS_AVX512_KERNELS
namespace {
using namespace range_select;

// The rule's Body::apply_max's one element of fill: fold(maximum, r, &fill, 1).
inline float fold_one(float r, float fill) {
  return (r != r || fill != fill) ? __builtin_nanf("") : (fill > r ? fill : r);
}

// count elements of dst from element i on take the fill: `codes`, a whole
// vector of it in dst's dtype.
template <simd::Kind K>
NISA_AVX512_INLINE void fill_run(uint8_t* dst, int64_t i, int64_t count, __m512i codes) {
  constexpr int64_t size = simd::kind_size(K), lanes = 64 / size;
  for (int64_t j = 0; j < count; j += lanes) {
    const int64_t left = count - j < lanes ? count - j : lanes;
    if constexpr (K == simd::Kind::bf16) {
      _mm512_mask_storeu_epi16(dst + (i + j) * size, static_cast<__mmask32>(left == 32 ? ~0u : (1u << left) - 1u), codes);
    } else {
      _mm512_mask_storeu_epi32(dst + (i + j) * size, simd::first_lanes(left), codes);
    }
  }
}

// fold(maximum, r, kept run) in the portable order (a zero maximum), from
// dst: the kept run's values (bf16 codes widened: the same values, NaNs
// aside, which give NaN anyway).
template <simd::Kind K>
float exact_fold(float r, const uint8_t* out, int64_t n) {
  float values[kLaneBatch];
  for (int64_t j = 0; j < n; ++j) {
    if constexpr (K == simd::Kind::bf16) {
      uint16_t code;
      std::memcpy(&code, out + 2 * j, 2);
      values[j] = Element<Dtype::bf16>::to_f32(code);
    } else {
      std::memcpy(&values[j], out + 4 * j, 4);
    }
  }
  return fold(ReduceOp::maximum, r, values, n);
}

// run_lanes<Body> in one pass per batch (fused_lane_loop.hpp): the same
// batches, the fill runs stored, the kept run copied (through float32, as
// the portable loop converts) and folded in Body::apply_max's order.
template <simd::Kind K, bool kFolds>
NISA_AVX512 void run_fused(const Step& s, Machine& m) {
  constexpr int64_t size = simd::kind_size(K);
  const float fill = s.params<Params>().on_false_value;
  const __m512i fill_codes = K == simd::Kind::bf16
                                 ? _mm512_set1_epi16(static_cast<short>(Element<Dtype::bf16>::from_f32(fill)))
                                 : _mm512_castps_si512(_mm512_set1_ps(fill));
  const int64_t rows = s.rows(), length = s.row_length;
  for (int64_t p = 0; p < s.partitions; ++p) {
    Lane lane = lane_at(s, p);
    keep_run(s, lane);  // Body::begin
    float r = fold_start(ReduceOp::maximum);
    for (int64_t row = 0; row < rows; ++row) {
      const auto ri = static_cast<std::size_t>(row);
      const uint8_t* x = s.in[0]->partition(p) + s.in[0]->row_offsets[ri];
      uint8_t* out = s.dst->partition(p) + s.dst->row_offsets[ri];
      for (int64_t c = 0; c < length; c += kLaneBatch) {
        const int64_t n = length - c < kLaneBatch ? length - c : kLaneBatch;
        const int64_t first = row * length + c;
        const int64_t a = std::clamp(lane.keep_first - first, int64_t{0}, n);
        const int64_t b = std::clamp(lane.keep_last + 1 - first, a, n);
        fill_run<K>(out, c, a, fill_codes);
        fill_run<K>(out, c + b, n - b, fill_codes);
        if (kFolds && (a > 0 || b < n)) r = fold_one(r, fill);
        simd::MaxValue maximum = simd::max_value(r);
        int64_t i = c + a;
        const int64_t end = c + b;
        for (; i + 32 <= end; i += 32) {
          if constexpr (K == simd::Kind::bf16) {  // the codes through float32 and back: only NaNs change
            const __m512i codes = _mm512_loadu_si512(x + i * size);
            _mm512_storeu_si512(out + i * size, simd::canonical_bf16(codes));
            if (kFolds) simd::add_max(maximum, simd::widen_bf16_first(codes), simd::widen_bf16_last(codes));
          } else {
            const __m512 lo = simd::load16<K>(x + i * size), hi = simd::load16<K>(x + (i + 16) * size);
            simd::store32<K>(out + i * size, lo, hi);
            if (kFolds) simd::add_max(maximum, lo, hi);
          }
        }
        for (; i < end; i += 16) {
          const __mmask16 mask = simd::first_lanes(end - i);
          const __m512 v = simd::load16<K>(x + i * size, mask);
          simd::store16<K>(out + i * size, v, mask);
          if (kFolds) simd::add_max(maximum, v, mask);
        }
        if (kFolds) {
          bool exact = false;
          const float quick = simd::max_result(r, maximum, exact);
          r = exact ? exact_fold<K>(r, out + (c + a) * size, b - a) : quick;
        }
      }
    }
    update_accumulator(s, m, p, r);  // Body::end
  }
}

}  // namespace

// The fused kernel when the step suits it: on_true and dst both f32 or both
// bf16.
Kernel range_select_avx512_kernel(const Step& s) {
  if (!fused_loop_fits(s) || s.in[0]->dtype != s.dst->dtype) return nullptr;
  const bool folds = folds_result(s);
  if (s.dst->dtype == Dtype::f32) return folds ? &run_fused<simd::Kind::f32, true> : &run_fused<simd::Kind::f32, false>;
  if (s.dst->dtype == Dtype::bf16) return folds ? &run_fused<simd::Kind::bf16, true> : &run_fused<simd::Kind::bf16, false>;
  return nullptr;
}
#else
Kernel range_select_avx512_kernel(const Step&) { return nullptr; }
#endif

}  // namespace nisa
