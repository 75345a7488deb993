#include "reduction.hpp"

namespace nisa {
namespace {

template <class Op>
float fold_exact(float r, const float* v, int64_t n, Op op) {
  constexpr int kWays = 8;
  float part[kWays];
  for (float& x : part) x = r;
  int64_t i = 0;
  for (; i + kWays <= n; i += kWays)
    for (int k = 0; k < kWays; ++k) part[k] = op(part[k], v[i + k]);
  for (; i < n; ++i) part[0] = op(part[0], v[i]);
  float out = part[0];
  for (int k = 1; k < kWays; ++k) out = op(out, part[k]);
  return out;
}

}  // namespace

float fold(ReduceOp op, float r, const float* v, int64_t n) {
  switch (op) {
    case ReduceOp::add:
      for (int64_t i = 0; i < n; ++i) r += v[i];
      return r;
    case ReduceOp::maximum: return fold_exact(r, v, n, nan_max);
    case ReduceOp::minimum: return fold_exact(r, v, n, nan_min);
    case ReduceOp::abs_max:
      return fold_exact(r, v, n, [](float a, float b) { return nan_max(a, std::fabs(b)); });
    case ReduceOp::abs_min:
      return fold_exact(r, v, n, [](float a, float b) { return nan_min(a, std::fabs(b)); });
    case ReduceOp::none: break;
  }
  return r;
}

void update_accumulator(const Step& s, Machine& m, int64_t p, float r) {
  if (s.accumulator == AccumulatorEngine::none) return;
  float* acc = s.accumulator == AccumulatorEngine::vector ? m.vector_accumulator.data() : m.scalar_accumulator.data();
  float& lane = acc[s.first_lane + p];
  switch (s.reduce_cmd) {
    case ReduceCmd::idle: break;
    case ReduceCmd::reset: lane = reduce_identity(s.reduce_op); break;
    case ReduceCmd::reset_reduce: lane = combine(s.reduce_op, reduce_identity(s.reduce_op), r); break;
    case ReduceCmd::reduce: lane = combine(s.reduce_op, lane, r); break;
  }
  if (s.has_reduce_res)
    s.reduce_res.store(s.reduce_res.partition(p), s.reduce_res.element_stride, 1, &lane);
}

}  // namespace nisa
