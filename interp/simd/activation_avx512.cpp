// activation with exp (S4.6) in one pass (AVX-512): sixteen partitions at a
// time, 16 elements of each computed as op(data*scale + bias) (cephes::exp16,
// the scalar exp's bits) and stored; for the add-reduction (S3) the 16x16
// block is transposed so that lane k holds partition k's elements in order,
// and one vector of sums adds them column by column: each partition's sum
// is still strictly left to right (the portable fold_add_lanes' bits), the
// sixteen chains run side by side.
// The rule: instructions/activation.cpp and activation_stage.hpp.
#include "activation_avx512.hpp"

#include <cstdint>

#include "activation_exp.hpp"
#include "activation_stage.hpp"
#include "fused_lane_loop.hpp"
#include "simd_lanes.hpp"

namespace nisa {

#if NISA_HAS_AVX512_KERNELS
namespace {

// v[j] (row j, lane k) becomes v[k] (row k, lane j).
NISA_AVX512_INLINE void transpose16(__m512 (&v)[16]) {
  __m512 t[16];
  for (int k = 0; k < 8; ++k) {
    t[2 * k] = _mm512_unpacklo_ps(v[2 * k], v[2 * k + 1]);
    t[2 * k + 1] = _mm512_unpackhi_ps(v[2 * k], v[2 * k + 1]);
  }
  __m512 u[16];
  for (int k = 0; k < 4; ++k) {
    const __m512d a = _mm512_castps_pd(t[4 * k]), b = _mm512_castps_pd(t[4 * k + 2]);
    const __m512d c = _mm512_castps_pd(t[4 * k + 1]), d = _mm512_castps_pd(t[4 * k + 3]);
    u[4 * k] = _mm512_castpd_ps(_mm512_unpacklo_pd(a, b));
    u[4 * k + 1] = _mm512_castpd_ps(_mm512_unpackhi_pd(a, b));
    u[4 * k + 2] = _mm512_castpd_ps(_mm512_unpacklo_pd(c, d));
    u[4 * k + 3] = _mm512_castpd_ps(_mm512_unpackhi_pd(c, d));
  }
  // u[4k + m], 128-bit lane L: column 4L + m of rows 4k..4k+3.
  for (int m = 0; m < 4; ++m) {
    const __m512 v0 = _mm512_shuffle_f32x4(u[m], u[4 + m], 0x44), v1 = _mm512_shuffle_f32x4(u[m], u[4 + m], 0xEE);
    const __m512 w0 = _mm512_shuffle_f32x4(u[8 + m], u[12 + m], 0x44), w1 = _mm512_shuffle_f32x4(u[8 + m], u[12 + m], 0xEE);
    v[m] = _mm512_shuffle_f32x4(v0, w0, 0x88);
    v[4 + m] = _mm512_shuffle_f32x4(v0, w0, 0xDD);
    v[8 + m] = _mm512_shuffle_f32x4(v1, w1, 0x88);
    v[12 + m] = _mm512_shuffle_f32x4(v1, w1, 0xDD);
  }
}

// The sums of partitions [p0, p0 + lanes) as run_lanes folds them (groups
// of kFoldLanes partitions, batches of kLaneBatch, fold_add_lanes), for a
// block whose sum met a NaN: which of two NaNs an add returns depends on
// the order of its operands in the compiled code, and the portable fold's
// vectorised loop varies it, so only the same code gives the same NaN.
// Reads data again: the fused kernel is not chosen when dst overlaps it.
void portable_sums(const Step& s, int64_t p0, int lanes, float* sums) {
  float in_buffer[kLaneBatch];
  float out_buffer[kFoldLanes][kLaneBatch];
  const bool in_place = reads_in_place(*s.in[0]);
  for (int g = 0; g < lanes; g += kFoldLanes) {
    const int group = lanes - g < kFoldLanes ? lanes - g : kFoldLanes;
    Lane lane[kFoldLanes];
    float r[kFoldLanes];
    for (int b = 0; b < group; ++b) {
      lane[b] = lane_at(s, p0 + g + b);
      r[b] = fold_start(ReduceOp::add);
    }
    for (int64_t row = 0; row < s.rows(); ++row)
      for (int64_t c = 0; c < s.row_length; c += kLaneBatch) {
        const int64_t n = s.row_length - c < kLaneBatch ? s.row_length - c : kLaneBatch;
        const float* outs[kFoldLanes];
        for (int b = 0; b < group; ++b) {
          const TileAccess& data = *s.in[0];
          const uint8_t* src = data.partition(lane[b].p) + data.row_offsets[static_cast<std::size_t>(row)] + c * data.element_stride;
          const float* in = reinterpret_cast<const float*>(src);
          if (!in_place) {
            data.load(src, data.element_stride, n, in_buffer);
            in = in_buffer;
          }
          ActivationBody::apply(s, lane[b], row * s.row_length + c, n, &in, out_buffer[b]);
          outs[b] = out_buffer[b];
        }
        fold_add_lanes(r, outs, group, n);
      }
    for (int b = 0; b < group; ++b) sums[g + b] = r[b];
  }
}

// Partitions [p0, p0 + 16) of an activation step with op exp; partitions
// from s.partitions on are computed from zeros and neither stored nor
// reduced.
// Partitions whose exp is computed together (cephes::exp16<N>).
constexpr int kTogether = 8;

template <simd::Kind In, simd::Kind Out, bool kFolds>
NISA_AVX512 void run_exp_block(const Step& s, Machine& m, int64_t p0, simd::Narrowing how) {
  constexpr int64_t in_size = simd::kind_size(In), out_size = simd::kind_size(Out);
  const int lanes = static_cast<int>(s.partitions - p0 < 16 ? s.partitions - p0 : 16);
  float scale[16] = {}, bias[16] = {};
  for (int k = 0; k < lanes; ++k) {
    if (s.scalar[kActivationScale].present) scale[k] = s.scalar[kActivationScale].at(p0 + k);
    if (s.scalar[kActivationBias].present) bias[k] = s.scalar[kActivationBias].at(p0 + k);
  }
  __m512 sums = _mm512_set1_ps(fold_start(ReduceOp::add));
  const int64_t rows = s.rows(), length = s.row_length;
  for (int64_t row = 0; row < rows; ++row) {
    const auto ri = static_cast<std::size_t>(row);
    const uint8_t* src[16];
    uint8_t* dst[16];
    for (int k = 0; k < 16; ++k) {
      const int64_t p = p0 + (k < lanes ? k : 0);
      src[k] = s.in[0]->partition(p) + s.in[0]->row_offsets[ri];
      dst[k] = s.dst->partition(p) + s.dst->row_offsets[ri];
    }
    for (int64_t i = 0; i < length; i += 16) {
      const int64_t count = length - i < 16 ? length - i : 16;
      const __mmask16 mask = simd::first_lanes(count);
      __m512 y[16];
      for (int k0 = 0; k0 < 16; k0 += kTogether) {
        __m512 v[kTogether];
        for (int j = 0; j < kTogether; ++j) {
          const int k = k0 + j;
          const __m512 x = simd::load16<In>(src[k] + i * in_size, mask);
          // data*scale + bias: two roundings (activation_stage.hpp's scale_bias),
          // the NaN of scale and of data*scale first (simd::add_b_first)
          v[j] = simd::add_b_first(_mm512_set1_ps(bias[k]), simd::multiply_b_first(x, _mm512_set1_ps(scale[k])));
        }
        cephes::exp16<kTogether>(v);
        for (int j = 0; j < kTogether; ++j) {
          const int k = k0 + j;
          y[k] = v[j];
          if (k < lanes) simd::store16<Out>(dst[k] + i * out_size, y[k], mask, how);
        }
      }
      if constexpr (kFolds) {
        transpose16(y);
        for (int j = 0; j < count; ++j) sums = _mm512_add_ps(sums, y[j]);
      }
    }
  }
  alignas(64) float r[16];
  _mm512_store_ps(r, sums);
  const auto live = static_cast<__mmask16>((1u << lanes) - 1u);
  if (kFolds && (_mm512_cmp_ps_mask(sums, sums, _CMP_UNORD_Q) & live) != 0) portable_sums(s, p0, lanes, r);
  for (int k = 0; k < lanes; ++k) update_accumulator(s, m, p0 + k, r[k]);
}

template <simd::Kind In, simd::Kind Out, bool kFolds>
NISA_AVX512 void run_exp(const Step& s, Machine& m) {
  const simd::Narrowing how = simd::narrowing();
  for (int64_t p0 = 0; p0 < s.partitions; p0 += 16) run_exp_block<In, Out, kFolds>(s, m, p0, how);
}

template <simd::Kind In>
Kernel fused_exp_kernel(const Step& s) {
  const bool folds = folds_result(s);
  if (s.dst->dtype == Dtype::f32) return folds ? &run_exp<In, simd::Kind::f32, true> : &run_exp<In, simd::Kind::f32, false>;
  return folds ? &run_exp<In, simd::Kind::bf16, true> : &run_exp<In, simd::Kind::bf16, false>;
}

}  // namespace

// The fused kernel for an activation step when it suits: op exp, data f32
// or bf16, dst f32 or bf16, unit strides, no reduction or an add (dst then
// apart from data: portable_sums reads it again).
Kernel activation_avx512_kernel(const Step& s) {
  if (s.params<ActivationParams>().op != ActivationFn::exp || !fast_kernels_enabled()) return nullptr;
  const simd::Kind in = simd::kind_of(s.in[0]->dtype), out = simd::kind_of(s.dst->dtype);
  if ((in != simd::Kind::f32 && in != simd::Kind::bf16) || (out != simd::Kind::f32 && out != simd::Kind::bf16)) return nullptr;
  if (!s.in[0]->unit_stride() || !s.dst->unit_stride()) return nullptr;
  if (folds_result(s) && (s.reduce_op != ReduceOp::add || tiles_overlap(*s.dst, *s.in[0]))) return nullptr;
  return in == simd::Kind::f32 ? fused_exp_kernel<simd::Kind::f32>(s) : fused_exp_kernel<simd::Kind::bf16>(s);
}
#else
Kernel activation_avx512_kernel(const Step&) { return nullptr; }
#endif

}  // namespace nisa
