// activate2 dst, op, data, imm0, imm1, op0, op1, relu_param, reverse0,
// reverse1, reduce_op, reduce_res, reduce_cmd (Scalar, v4+; S4.5):
// v = data; v = op0(v, imm0) (op0(imm0, v) if reverse0) unless bypass; the same
// with op1/imm1; dst = op(v, relu_param). The float32 results (before the dst
// cast) feed the Scalar accumulator with any of the five reduce ops (S3).
#include "activation_functions.hpp"
#include "alu.hpp"
#include "lane_loop.hpp"
#include "instructions.hpp"
#include "tensor_indirection.hpp"

namespace nisa {
namespace {
namespace slot = spec_operand::activate2;

struct Params {
  ActivationFn op;
  AluOp op0, op1;
  bool reverse0, reverse1;
};
enum : int { kImm0, kImm1, kReluParam };  // Step::scalar

// The two ALU stages before the function, over n values.
inline void alu_stages(const Params& k, const float* x, float imm0, float imm1, float* out, int64_t n) {
  alu_with_scalar(k.op0, x, imm0, k.reverse0, out, n);
  if (k.op1 != AluOp::bypass) alu_with_scalar(k.op1, out, imm1, k.reverse1, out, n);
}

struct Body : AccumulatingEnd {
  static void apply(const Step& s, const Lane& lane, int64_t, int64_t n, const float* const* in, float* out) {
    const Params& k = s.params<Params>();
    alu_stages(k, in[0], lane.scalar[kImm0], lane.scalar[kImm1], out, n);
    apply_activation(k.op, out, n, lane.scalar[kReluParam]);
  }
};

void decode(const DecodeContext& c, Step& s) {
  const TileAccess* data = c.tile(slot::data);
  stream_tiles(c, s, streamed_tile(c, slot::dst), {streamed_tile(c, slot::data)});
  s.set_params(Params{c.enum_value<ActivationFn>(slot::op), c.enum_value<AluOp>(slot::op0),
                      c.enum_value<AluOp>(slot::op1), c.boolean(slot::reverse0), c.boolean(slot::reverse1)});
  s.scalar[kImm0] = c.partition_scalar(slot::imm0, 0.0f);
  s.scalar[kImm1] = c.partition_scalar(slot::imm1, 0.0f);
  s.scalar[kReluParam] = c.partition_scalar(slot::relu_param, 0.0f);
  accumulate_into(c, s, {slot::reduce_cmd, slot::reduce_op, slot::reduce_res}, AccumulatorEngine::scalar,
                  data->first_partition, ReduceOp::add);
  s.run = run_lanes<Body>;
  finish_tensor_indirection(c, s, slot::dst, {slot::data});
}

// S5: the function's input, the two ALU stages' result, in its valid range.
void check_strict(const Step& s, const StrictFault& fault) {
  const Params& k = s.params<Params>();
  check_activation_inputs(s, fault, k.op, [&](int64_t p, float x) {
    alu_stages(k, &x, s.scalar[kImm0].at(p), s.scalar[kImm1].at(p), &x, 1);
    return x;
  });
}

}  // namespace

const InstructionSemantics activate2_semantics{decode, {.check = check_strict}};

}  // namespace nisa
