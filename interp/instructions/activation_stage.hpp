// The Scalar Engine's activation stage, op(data*scale + bias) in float32
// (S4.6), shared by activation and activation_reduce (S4.25): the parameter
// struct, the lane-loop Body and the --strict S5 input-range check.
#pragma once
#include "activation_functions.hpp"
#include "alu.hpp"
#include "lane_loop.hpp"
#include "strict.hpp"

namespace nisa {

struct ActivationParams {
  ActivationFn op;
};
enum : int { kActivationScale, kActivationBias };  // Step::scalar

// data*scale + bias: two float32 roundings, no fused multiply-add. Of two
// NaNs, scale's and then data*scale's (alu.hpp's commutative_nan_b).
inline float scale_bias(float x, float scale, float bias) {
  const float scaled = commutative_nan_b<AluOp::multiply>(x, scale);
  return commutative_nan_b<AluOp::add>(bias, scaled);
}

struct ActivationBody : AccumulatingEnd {
  static void apply(const Step& s, const Lane& lane, int64_t, int64_t n, const float* const* in, float* out) {
    const float scale = lane.scalar[kActivationScale], bias = lane.scalar[kActivationBias];
    const float* x = in[0];
    for (int64_t i = 0; i < n; ++i) out[i] = scale_bias(x[i], scale, bias);
    apply_activation(s.params<ActivationParams>().op, out, n, 0.0f);
  }
};

// S5: the function's input, data*scale + bias, in its valid range.
inline void check_activation_strict(const Step& s, const StrictFault& fault) {
  check_activation_inputs(s, fault, s.params<ActivationParams>().op, [&](int64_t p, float x) {
    return scale_bias(x, s.scalar[kActivationScale].at(p), s.scalar[kActivationBias].at(p));
  });
}

}  // namespace nisa
