// tensor_tensor dst, data1, data2, op (Vector; LANGUAGE.md 2.4, NKI 0.6
// docstring): dst = data1 op data2 elementwise; arithmetic operators in
// float32 (S2.1, alu.hpp), bitvec ones on bit patterns (bit_alu.hpp).
#include "alu.hpp"
#include "bit_alu.hpp"
#include "instructions.hpp"
#include "lane_loop.hpp"
#include "tensor_indirection.hpp"
#include "tensor_tensor_avx512.hpp"

namespace nisa {
namespace {
namespace slot = spec_operand::tensor_tensor;

struct Params { AluOp op; };

struct Body : ElementwiseBody {
  static void apply(const Step& s, const Lane&, int64_t, int64_t n, const float* const* in, float* out) {
    alu_with_tensor(s.params<Params>().op, in[0], in[1], out, n);
  }
};

struct BitBody : ElementwiseBitBody {
  static void apply(const Step& s, const uint32_t*, int64_t n, const uint32_t* const* in, uint32_t* out, uint32_t&) {
    for (int64_t i = 0; i < n; ++i) out[i] = bit_alu(s.params<Params>().op, in[0][i], in[1][i]);
  }
};

void decode(const DecodeContext& c, Step& s) {
  stream_tiles(c, s, streamed_tile(c, slot::dst), {streamed_tile(c, slot::data1), c.tile(slot::data2)});
  const Params& k = s.set_params(Params{c.enum_value<AluOp>(slot::op)});
  s.run = spec_enum::is_bitvec(k.op) ? run_bit_lanes<BitBody> : run_lanes<Body>;
  if (Kernel fused = tensor_tensor_avx512_kernel(s, k.op)) s.run = fused;
  finish_tensor_indirection(c, s, slot::dst, {slot::data1, slot::data2});
}

}  // namespace

const InstructionSemantics tensor_tensor_semantics{decode};

}  // namespace nisa
