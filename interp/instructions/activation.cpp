// activation dst, op, data, bias, scale, reduce_op, reduce_res, reduce_cmd
// (Scalar; S4.6): dst = op(data*scale + bias) in float32; scale and bias are
// scalars or [P, 1] tiles. The sum of the activated values (before the dst
// cast) feeds the Scalar accumulator (S3; add only). The stage itself is
// activation_stage.hpp (shared with activation_reduce).
#include "activation_avx512.hpp"
#include "activation_stage.hpp"
#include "instructions.hpp"
#include "tensor_indirection.hpp"

namespace nisa {
namespace {
namespace slot = spec_operand::activation;

void decode(const DecodeContext& c, Step& s) {
  const TileAccess* data = c.tile(slot::data);
  stream_tiles(c, s, streamed_tile(c, slot::dst), {streamed_tile(c, slot::data)});
  s.set_params(ActivationParams{c.enum_value<ActivationFn>(slot::op)});
  s.scalar[kActivationScale] = c.partition_scalar(slot::scale, 1.0f);
  s.scalar[kActivationBias] = c.partition_scalar(slot::bias, 0.0f);
  accumulate_into(c, s, {slot::reduce_cmd, slot::reduce_op, slot::reduce_res}, AccumulatorEngine::scalar,
                  data->first_partition, ReduceOp::add);
  s.run = run_lanes<ActivationBody>;
  if (Kernel fused = activation_avx512_kernel(s)) s.run = fused;
  finish_tensor_indirection(c, s, slot::dst, {slot::data});
}

}  // namespace

const InstructionSemantics activation_semantics{decode, {.check = check_activation_strict}};

}  // namespace nisa
