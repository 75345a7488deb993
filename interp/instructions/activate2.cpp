// activate2 dst, op, data, imm0, imm1, op0, op1, relu_param, reverse0,
// reverse1, reduce_op, reduce_res, reduce_cmd (Scalar, v4+; S4.5):
// v = data; v = op0(v, imm0) (op0(imm0, v) if reverse0) unless bypass; the same
// with op1/imm1; dst = op(v, relu_param). The float32 results (before the dst
// cast) feed the Scalar accumulator with any of the five reduce ops (S3).
#include "../activation_functions.hpp"
#include "../alu.hpp"
#include "../lane_loop.hpp"
#include "instructions.hpp"

namespace nisa {
namespace {

struct Body : AccumulatingEnd {
  static void begin(const Step&, int64_t, Lane&) {}
  static void apply(const Step& s, const Lane& lane, int64_t, int64_t n, const float* const* in, float* out) {
    alu_with_scalar(s.op0, in[0], lane.scalar[0], s.flag0, out, n);
    if (s.op1 != AluOp::bypass) alu_with_scalar(s.op1, out, lane.scalar[1], s.flag1, out, n);
    apply_activation(s.activation, out, n, lane.scalar[2]);
  }
};

}  // namespace

void decode_activate2(const DecodeContext& c, Step& s) {
  const TileAccess* data = c.tile("data");
  stream_tiles(c, s, c.tile("dst"), {data});
  s.activation = activation_fn(c, "op");
  s.prestage = Step::Prestage::alu_pair;
  s.scalar[0] = c.partition_scalar("imm0", 0.0f);
  s.scalar[1] = c.partition_scalar("imm1", 0.0f);
  s.scalar[2] = c.partition_scalar("relu_param", 0.0f);
  s.op0 = alu_op(c, "op0");
  s.op1 = alu_op(c, "op1");
  s.flag0 = c.boolean("reverse0");
  s.flag1 = c.boolean("reverse1");
  accumulate_into(c, s, AccumulatorEngine::scalar, data->first_partition, ReduceOp::add);
  s.run = run_lanes<Body>;
}

}  // namespace nisa
