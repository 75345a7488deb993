// range_select dst, on_true_tile, comp_op0, comp_op1, bound0, bound1,
// reduce_cmd, reduce_res, reduce_op, range_start, on_false_value (Vector;
// S4.4): idx = float32(range_start + i); keep = comp_op0(idx,
// bound0[p]) and comp_op1(idx, bound1[p]); out = keep ? x : on_false_value;
// the maximum feeds the Vector accumulator (S3).
//
// idx is an integer below 2^24 (checked by the assembler), so it and the
// float32 bound compare exactly in double: each comparison keeps a run of
// consecutive i, and their intersection is computed once per partition.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "numbers.hpp"

#include "fused_lane_loop.hpp"
#include "lane_loop.hpp"
#include "instructions.hpp"

namespace nisa {
namespace {
namespace slot = spec_operand::range_select;

struct Params {
  CompareOp comp_op0, comp_op1;
  float on_false_value;  // fp32.min (S4.4); not per partition
  int64_t range_start;
};
enum : int { kBound0, kBound1 };  // Step::scalar

constexpr double kFar = 0x1p40;  // beyond any index

// Narrows [lo, hi] (values of idx) to those with compare(idx, bound).
void keep_where(CompareOp op, float bound, double& lo, double& hi) {
  const double b = bound;
  if (std::isnan(b)) {  // every comparison with NaN is false
    lo = kFar;
    return;
  }
  switch (op) {
    case CompareOp::less: hi = std::min(hi, std::ceil(b) - 1); break;
    case CompareOp::less_equal: hi = std::min(hi, std::floor(b)); break;
    case CompareOp::greater: lo = std::max(lo, std::floor(b) + 1); break;
    case CompareOp::greater_equal: lo = std::max(lo, std::ceil(b)); break;
    case CompareOp::equal:
      if (std::floor(b) != b) {
        lo = kFar;
      } else {
        lo = std::max(lo, b);
        hi = std::min(hi, b);
      }
      break;
    case CompareOp::not_equal: break;  // not allowed by the spec for range_select
  }
}

struct Body : AccumulatingEnd {
  static void begin(const Step& s, int64_t, Lane& lane) {
    const Params& k = s.params<Params>();
    double lo = -kFar, hi = kFar;
    keep_where(k.comp_op0, lane.scalar[kBound0], lo, hi);
    keep_where(k.comp_op1, lane.scalar[kBound1], lo, hi);
    const double rs = static_cast<double>(k.range_start);
    lo = std::clamp(lo - rs, -kFar, kFar);
    hi = std::clamp(hi - rs, -kFar, kFar);
    lane.keep_first = static_cast<int64_t>(lo);
    lane.keep_last = static_cast<int64_t>(hi);
  }
  static void apply(const Step& s, const Lane& lane, int64_t first, int64_t n, const float* const* in, float* out) {
    const float fill = s.params<Params>().on_false_value;
    const int64_t a = std::clamp(lane.keep_first - first, int64_t{0}, n);
    const int64_t b = std::clamp(lane.keep_last + 1 - first, a, n);
    const float* x = in[0];
    for (int64_t i = 0; i < a; ++i) out[i] = fill;
    if (out != x)
      for (int64_t i = a; i < b; ++i) out[i] = x[i];
    for (int64_t i = b; i < n; ++i) out[i] = fill;
  }
  // The same in one pass with the maximum: the kept run is copied while it
  // is folded, and the fill counts once if any element took it.
  static void apply_max(const Step& s, const Lane& lane, int64_t first, int64_t n, const float* const* in, float* out,
                        float& r) {
    const float fill = s.params<Params>().on_false_value;
    const int64_t a = std::clamp(lane.keep_first - first, int64_t{0}, n);
    const int64_t b = std::clamp(lane.keep_last + 1 - first, a, n);
    for (int64_t i = 0; i < a; ++i) out[i] = fill;
    for (int64_t i = b; i < n; ++i) out[i] = fill;
    if (a > 0 || b < n) r = fold(ReduceOp::maximum, r, &fill, 1);
    r = fold_max_copying(r, in[0] + a, out + a, b - a);
  }
};

#if NISA_HAS_AVX512_KERNELS
// Body::apply_max's one element of fill: fold(maximum, r, &fill, 1).
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
    Body::begin(s, p, lane);
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
    Body::end(s, m, p, r);
  }
}

// The fused kernel when the step suits it: on_true and dst both f32 or both
// bf16.
Kernel fused_kernel(const Step& s) {
  if (!fused_loop_fits(s) || s.in[0]->dtype != s.dst->dtype) return nullptr;
  const bool folds = folds_result(s);
  if (s.dst->dtype == Dtype::f32) return folds ? &run_fused<simd::Kind::f32, true> : &run_fused<simd::Kind::f32, false>;
  if (s.dst->dtype == Dtype::bf16) return folds ? &run_fused<simd::Kind::bf16, true> : &run_fused<simd::Kind::bf16, false>;
  return nullptr;
}
#endif

void decode(const DecodeContext& c, Step& s) {
  const TileAccess* on_true = c.tile(slot::on_true_tile);
  stream_tiles(c, s, c.tile(slot::dst), {on_true});
  s.scalar[kBound0] = c.partition_scalar(slot::bound0, 0.0f);
  s.scalar[kBound1] = c.partition_scalar(slot::bound1, 0.0f);
  s.set_params(Params{c.enum_value<CompareOp>(slot::comp_op0), c.enum_value<CompareOp>(slot::comp_op1),
                      c.scalar(slot::on_false_value), c.integer(slot::range_start)});
  accumulate_into(c, s, {slot::reduce_cmd, slot::reduce_op, slot::reduce_res}, AccumulatorEngine::vector,
                  on_true->first_partition, ReduceOp::maximum);
  s.run = run_lanes<Body>;
#if NISA_HAS_AVX512_KERNELS
  if (Kernel fused = fused_kernel(s)) s.run = fused;
#endif
}

}  // namespace

const InstructionSemantics range_select_semantics{decode};

}  // namespace nisa
