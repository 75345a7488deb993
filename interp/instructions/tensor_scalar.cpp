// tensor_scalar dst, data, op0, operand0, reverse0, op1, operand1, reverse1
// (Vector; LANGUAGE.md 2.4): dst = (data op0 operand0) op1 operand1 in float32
// (S2.1); operands are scalars or [P, 1] tiles; reverse swaps an op's inputs;
// op1 = bypass skips the second stage.
#include "../alu.hpp"
#include "../lane_loop.hpp"
#include "instructions.hpp"

namespace nisa {
namespace {

struct Body {
  static void begin(const Step&, int64_t, Lane&) {}
  static void apply(const Step& s, const Lane& lane, int64_t, int64_t n, const float* const* in, float* out) {
    alu_with_scalar(s.op0, in[0], lane.scalar[0], s.flag0, out, n);
    if (s.op1 != AluOp::bypass) alu_with_scalar(s.op1, out, lane.scalar[1], s.flag1, out, n);
  }
  static void end(const Step&, Machine&, int64_t, float) {}
};

}  // namespace

void decode_tensor_scalar(const DecodeContext& c, Step& s) {
  stream_tiles(c, s, c.tile("dst"), {c.tile("data")});
  s.op0 = alu_op(c, "op0");
  s.op1 = alu_op(c, "op1");
  s.scalar[0] = c.partition_scalar("operand0", 0.0f);
  s.scalar[1] = c.partition_scalar("operand1", 0.0f);
  s.flag0 = c.boolean("reverse0");
  s.flag1 = c.boolean("reverse1");
  s.run = run_lanes<Body>;
}

}  // namespace nisa
