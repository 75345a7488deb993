// tensor_scalar dst, data, op0, operand0, reverse0, op1, operand1, reverse1
// (Vector; LANGUAGE.md 2.4, NKI 0.6 docstring): dst = (data op0 operand0) op1
// operand1; operands are scalars or [P, 1] tiles; reverse swaps an op's
// inputs; op1 = bypass skips the second stage. Arithmetic operators work in
// float32 (S2.1, alu.hpp); bitvec ones on bit patterns (bit_alu.hpp; the
// assembler checked that both ops are of one kind, with integer tiles).
// The step's parameters are declared in tensor_scalar.hpp, which its
// AVX-512 kernels (simd/tensor_scalar_avx512.cpp) read too.
#include "alu.hpp"
#include "bit_alu.hpp"
#include "instructions.hpp"
#include "lane_loop.hpp"
#include "tensor_indirection.hpp"
#include "tensor_scalar.hpp"
#include "tensor_scalar_avx512.hpp"

namespace nisa {
namespace {
namespace slot = spec_operand::tensor_scalar;
using namespace tensor_scalar;

struct Body : ElementwiseBody {
  static void apply(const Step& s, const Lane& lane, int64_t, int64_t n, const float* const* in, float* out) {
    const Params& k = s.params<Params>();
    alu_with_scalar(k.op0, in[0], lane.scalar[kOperand0], k.reverse0, out, n);
    if (k.op1 != AluOp::bypass) alu_with_scalar(k.op1, out, lane.scalar[kOperand1], k.reverse1, out, n);
  }
};

struct BitBody : ElementwiseBitBody {
  static uint32_t stage(AluOp op, uint32_t x, uint32_t operand, bool reverse) {
    return reverse && !spec_enum::is_unary(op) ? bit_alu(op, operand, x) : bit_alu(op, x, operand);
  }
  static void apply(const Step& s, const uint32_t* scalars, int64_t n, const uint32_t* const* in, uint32_t* out, uint32_t&) {
    const Params& k = s.params<Params>();
    for (int64_t i = 0; i < n; ++i)
      out[i] = stage(k.op1, stage(k.op0, in[0][i], scalars[kOperand0], k.reverse0), scalars[kOperand1], k.reverse1);
  }
};

void decode(const DecodeContext& c, Step& s) {
  stream_tiles(c, s, streamed_tile(c, slot::dst), {streamed_tile(c, slot::data)});
  const Params& k = s.set_params(Params{c.enum_value<AluOp>(slot::op0), c.enum_value<AluOp>(slot::op1),
                                        c.boolean(slot::reverse0), c.boolean(slot::reverse1)});
  s.scalar[kOperand0] = c.partition_scalar(slot::operand0, 0.0f);
  s.scalar[kOperand1] = c.partition_scalar(slot::operand1, 0.0f);
  const bool bitvec = spec_enum::is_bitvec(k.op0) || spec_enum::is_bitvec(k.op1);
  s.run = bitvec ? run_bit_lanes<BitBody> : run_lanes<Body>;
  if (Kernel fused = bitvec ? nullptr : tensor_scalar_avx512_kernel(s)) s.run = fused;
  finish_tensor_indirection(c, s, slot::dst, {slot::data});
}

}  // namespace

const InstructionSemantics tensor_scalar_semantics{decode};

}  // namespace nisa
