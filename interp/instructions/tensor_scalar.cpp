// tensor_scalar dst, data, op0, operand0, reverse0, op1, operand1, reverse1
// (Vector; LANGUAGE.md 2.4, NKI 0.6 docstring): dst = (data op0 operand0) op1
// operand1; operands are scalars or [P, 1] tiles; reverse swaps an op's
// inputs; op1 = bypass skips the second stage. Arithmetic operators work in
// float32 (S2.1, alu.hpp); bitvec ones on bit patterns (bit_alu.hpp; the
// assembler checked that both ops are of one kind, with integer tiles).
#include "../alu.hpp"
#include "../bit_alu.hpp"
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

struct BitBody {
  static uint32_t start(const Step&) { return 0; }
  static uint32_t stage(AluOp op, uint32_t x, uint32_t operand, bool reverse) {
    return reverse && !spec_enum::is_unary(op) ? bit_alu(op, operand, x) : bit_alu(op, x, operand);
  }
  static void apply(const Step& s, const uint32_t* scalars, int64_t n, const uint32_t* const* in, uint32_t* out, uint32_t&) {
    for (int64_t i = 0; i < n; ++i) out[i] = stage(s.op1, stage(s.op0, in[0][i], scalars[0], s.flag0), scalars[1], s.flag1);
  }
  static void end(const Step&, int64_t, uint32_t) {}
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
  const bool bitvec = spec_enum::is_bitvec(s.op0) || spec_enum::is_bitvec(s.op1);
  s.run = bitvec ? run_bit_lanes<BitBody> : run_lanes<Body>;
}

}  // namespace nisa
