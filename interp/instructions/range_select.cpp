// range_select dst, on_true_tile, comp_op0, comp_op1, bound0, bound1,
// reduce_cmd, reduce_res, reduce_op, range_start, on_false_value (Vector;
// S4.4): idx = float32(range_start + i); keep = comp_op0(idx,
// bound0[p]) and comp_op1(idx, bound1[p]); out = keep ? x : on_false_value;
// the maximum feeds the Vector accumulator (S3).
//
// idx is an integer below 2^24 (checked by the assembler), so it and the
// float32 bound compare exactly in double: each comparison keeps a run of
// consecutive i, and their intersection is computed once per partition.
// The step's parameters are declared in range_select.hpp, which its AVX-512
// kernel (simd/range_select_avx512.cpp) reads too.
#include <algorithm>
#include <cmath>

#include "instructions.hpp"
#include "lane_loop.hpp"
#include "range_select.hpp"
#include "range_select_avx512.hpp"

namespace nisa {
namespace range_select {
namespace {

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

}  // namespace

void keep_run(const Step& s, Lane& lane) {
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

}  // namespace range_select

namespace {
namespace slot = spec_operand::range_select;
using namespace range_select;

struct Body : AccumulatingEnd {
  static void begin(const Step& s, int64_t, Lane& lane) { keep_run(s, lane); }
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
  if (Kernel fused = range_select_avx512_kernel(s)) s.run = fused;
}

}  // namespace

const InstructionSemantics range_select_semantics{decode};

}  // namespace nisa
