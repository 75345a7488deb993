// activation_reduce dst, op, data, reduce_op, reduce_res, bias, scale
// (Scalar; S4.25, NKI 0.6 docstring): activation (S4.6) with
// reduce_cmd=reset_reduce: dst = op(data*scale + bias) in float32, the Scalar
// accumulator lanes reset to reduce_op's identity, then combined with the
// reduction of the float32 results (S3), then copied to reduce_res.
#include "activation_stage.hpp"
#include "instructions.hpp"

namespace nisa {
namespace {
namespace slot = spec_operand::activation_reduce;

void decode(const DecodeContext& c, Step& s) {
  const TileAccess* data = c.tile(slot::data);
  stream_tiles(c, s, c.tile(slot::dst), {data});
  s.set_params(ActivationParams{c.enum_value<ActivationFn>(slot::op)});
  s.scalar[kActivationScale] = c.partition_scalar(slot::scale, 1.0f);
  s.scalar[kActivationBias] = c.partition_scalar(slot::bias, 0.0f);
  s.accumulator = AccumulatorEngine::scalar;
  s.first_lane = data->first_partition;
  s.reduce_cmd = ReduceCmd::reset_reduce;
  set_reduce_op(c, s, slot::reduce_op, ReduceOp::add);
  s.reduce_res = c.tile(slot::reduce_res);
  s.run = run_lanes<ActivationBody>;
}

}  // namespace

const InstructionSemantics activation_reduce_semantics{decode, {.check = check_activation_strict}};

}  // namespace nisa
