// scalar_tensor_tensor dst, data, op0, operand0, op1, operand1, reverse0,
// reverse1 (Vector; S4.23, NKI 0.6 docstring): v = op0(data, operand0)
// (op0(operand0, data) when reverse0), then dst = op1(v, operand1)
// (op1(operand1, v) when reverse1); operand0 is a scalar or [P, 1] tile,
// operand1 a tile of data's shape. Arithmetic operators, float32 (S2.1).
#include "alu.hpp"
#include "lane_loop.hpp"
#include "instructions.hpp"

namespace nisa {
namespace {
namespace slot = spec_operand::scalar_tensor_tensor;

struct Params {
  AluOp op0, op1;
  bool reverse0, reverse1;
};
enum : int { kOperand0 };  // Step::scalar

struct Body : ElementwiseBody {
  static void apply(const Step& s, const Lane& lane, int64_t, int64_t n, const float* const* in, float* out) {
    const Params& k = s.params<Params>();
    alu_with_scalar(k.op0, in[0], lane.scalar[kOperand0], k.reverse0, out, n);
    if (k.reverse1)
      alu_with_tensor(k.op1, in[1], out, out, n);
    else
      alu_with_tensor(k.op1, out, in[1], out, n);
  }
};

void decode(const DecodeContext& c, Step& s) {
  stream_tiles(c, s, c.tile(slot::dst), {c.tile(slot::data), c.tile(slot::operand1)});
  s.set_params(Params{c.enum_value<AluOp>(slot::op0), c.enum_value<AluOp>(slot::op1), c.boolean(slot::reverse0),
                      c.boolean(slot::reverse1)});
  s.scalar[kOperand0] = c.partition_scalar(slot::operand0, 0.0f);
  s.run = run_lanes<Body>;
}

}  // namespace

const InstructionSemantics scalar_tensor_tensor_semantics{decode};

}  // namespace nisa
