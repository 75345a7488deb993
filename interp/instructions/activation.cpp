// activation dst, op, data, bias, scale, reduce_op, reduce_res, reduce_cmd
// (Scalar; S4.6): dst = op(data*scale + bias) in float32; scale and bias are
// scalars or [P, 1] tiles. The sum of the activated values (before the dst
// cast) feeds the Scalar accumulator (S3; add only).
#include "../activation_functions.hpp"
#include "../lane_loop.hpp"
#include "instructions.hpp"

namespace nisa {
namespace {
namespace slot = spec_operand::activation;

struct Params {
  ActivationFn op;
};
enum : int { kScale, kBias };  // Step::scalar

// data*scale + bias: two float32 roundings, no fused multiply-add.
inline float scale_bias(float x, float scale, float bias) {
  const float scaled = x * scale;
  return scaled + bias;
}

struct Body : AccumulatingEnd {
  static void apply(const Step& s, const Lane& lane, int64_t, int64_t n, const float* const* in, float* out) {
    const float scale = lane.scalar[kScale], bias = lane.scalar[kBias];
    const float* x = in[0];
    for (int64_t i = 0; i < n; ++i) out[i] = scale_bias(x[i], scale, bias);
    apply_activation(s.params<Params>().op, out, n, 0.0f);
  }
};

void decode(const DecodeContext& c, Step& s) {
  const TileAccess* data = c.tile(slot::data);
  stream_tiles(c, s, c.tile(slot::dst), {data});
  s.set_params(Params{c.enum_value<ActivationFn>(slot::op)});
  s.scalar[kScale] = c.partition_scalar(slot::scale, 1.0f);
  s.scalar[kBias] = c.partition_scalar(slot::bias, 0.0f);
  accumulate_into(c, s, {slot::reduce_cmd, slot::reduce_op, slot::reduce_res}, AccumulatorEngine::scalar,
                  data->first_partition, ReduceOp::add);
  s.run = run_lanes<Body>;
}

// S5: the function's input, data*scale + bias, in its valid range.
void check_strict(const Step& s, const StrictFault& fault) {
  check_activation_inputs(s, fault, s.params<Params>().op, [&](int64_t p, float x) {
    return scale_bias(x, s.scalar[kScale].at(p), s.scalar[kBias].at(p));
  });
}

}  // namespace

const InstructionSemantics activation_semantics{decode, {.check = check_strict}};

}  // namespace nisa
