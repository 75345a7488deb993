// The lane loop of lane_loop.hpp in one pass per 16 elements (AVX-512): the
// inputs are widened to float32 in registers, the instruction's vector Body
// computes them, the maximum fold (S3) takes them, and they are narrowed
// into dst, with no batch buffers between the stages. For the common forms
// only (fused_loop_fits): unit-stride f32/bf16/u8/i8 inputs, f32 or bf16
// dst, no reduction (select_reduce and range_select, which fold, have their
// own kernels: simd/<name>_avx512.cpp). Results are the portable loop's bits: the same float32
// operations per element.
//
//   struct VectorBody {
//     static __m512 vec(const Step&, const Lane&, int64_t first, const __m512* in);  // NISA_AVX512
//   };
// with begin/end as for run_lanes (the Body may be the same struct).
#pragma once
#include <cstdint>

#include "fast_kernels.hpp"
#include "lane_loop.hpp"
#include "simd_lanes.hpp"

namespace nisa {

// run_lanes' `folds`: the results fold into r.
inline bool folds_result(const Step& s) {
  const bool reducing = s.reduce_cmd == ReduceCmd::reset_reduce || s.reduce_cmd == ReduceCmd::reduce ||
                        s.accumulator == AccumulatorEngine::none;
  return reducing && s.reduces;
}

// The step's tiles suit the fast kernels, and its reduction, if any, is a
// maximum (run_fused_lanes_as itself is for steps that do not fold).
inline bool fused_loop_fits(const Step& s) {
#if NISA_HAS_AVX512_KERNELS
  if (!fast_kernels_enabled()) return false;
  const simd::Kind out = simd::kind_of(s.dst->dtype);
  if ((out != simd::Kind::f32 && out != simd::Kind::bf16) || !s.dst->unit_stride()) return false;
  for (int k = 0; k < s.inputs; ++k)
    if (simd::kind_of(s.in[k]->dtype) == simd::Kind::none || !s.in[k]->unit_stride()) return false;
  return !(folds_result(s) && s.reduce_op != ReduceOp::maximum);  // the kernels that fold fold maxima
#else
  (void)s;
  return false;
#endif
}

#if NISA_HAS_AVX512_KERNELS
// One chunk of `count` elements at index i of a row: loaded, computed, stored.
template <class Body, simd::Kind In0, simd::Kind In1, simd::Kind Out>
struct Chunk {
  const Step& s;
  const Lane& lane;
  const uint8_t* src0;
  const uint8_t* src1;
  uint8_t* dst;
  int64_t row_first;  // flat index of the row's element 0
  simd::Narrowing how;
  NISA_AVX512_INLINE __m512 operator()(int64_t i, int64_t count) const {
    const __mmask16 mask = simd::first_lanes(count);
    __m512 in[2];
    in[0] = simd::load16<In0>(src0 + i * simd::kind_size(In0), mask);
    if constexpr (In1 != simd::Kind::none) in[1] = simd::load16<In1>(src1 + i * simd::kind_size(In1), mask);
    const __m512 y = Body::vec(s, lane, row_first + i, in);
    simd::store16<Out>(dst + i * simd::kind_size(Out), y, mask, how);
    return y;
  }
  // Elements [i, i + 32): a and b.
  NISA_AVX512_INLINE void pair(int64_t i, __m512& a, __m512& b) const {
    a = compute(i);
    b = compute(i + 16);
    simd::store32<Out>(dst + i * simd::kind_size(Out), a, b, how);
  }
  NISA_AVX512_INLINE __m512 compute(int64_t i) const {
    __m512 in[2];
    in[0] = simd::load16<In0>(src0 + i * simd::kind_size(In0));
    if constexpr (In1 != simd::Kind::none) in[1] = simd::load16<In1>(src1 + i * simd::kind_size(In1));
    return Body::vec(s, lane, row_first + i, in);
  }
};

// Inputs of kinds In0 (and In1, unless Kind::none), dst of kind Out; the
// kinds and the Body are compile-time so that the loop keeps everything in
// registers.
template <class Body, simd::Kind In0, simd::Kind In1, simd::Kind Out>
NISA_AVX512 void run_fused_lanes_as(const Step& s, Machine& m) {
  constexpr bool two = In1 != simd::Kind::none;
  const int64_t rows = s.rows(), length = s.row_length;
  const simd::Narrowing how = simd::narrowing();
  for (int64_t p = 0; p < s.partitions; ++p) {
    Lane lane = lane_at(s, p);
    Body::begin(s, p, lane);
    for (int64_t row = 0; row < rows; ++row) {
      const auto ri = static_cast<std::size_t>(row);
      const uint8_t* src0 = s.in[0]->partition(p) + s.in[0]->row_offsets[ri];
      const uint8_t* src1 = two ? s.in[1]->partition(p) + s.in[1]->row_offsets[ri] : nullptr;
      uint8_t* dst = s.dst->partition(p) + s.dst->row_offsets[ri];
      const Chunk<Body, In0, In1, Out> chunk{s, lane, src0, src1, dst, row * length, how};
      int64_t i = 0;
      for (; i + 32 <= length; i += 32) {
        __m512 a, b;
        chunk.pair(i, a, b);
      }
      for (; i < length; i += 16) chunk(i, length - i < 16 ? length - i : 16);
    }
    Body::end(s, m, p, fold_start(s.reduce_op));
  }
}
#endif

}  // namespace nisa
