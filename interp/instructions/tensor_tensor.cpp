// tensor_tensor dst, data1, data2, op (Vector; LANGUAGE.md 2.4, NKI 0.6
// docstring): dst = data1 op data2 elementwise; arithmetic operators in
// float32 (S2.1, alu.hpp), bitvec ones on bit patterns (bit_alu.hpp).
#include "alu.hpp"
#include "alu_vectors.hpp"
#include "bit_alu.hpp"
#include "fused_lane_loop.hpp"
#include "lane_loop.hpp"
#include "instructions.hpp"

namespace nisa {
namespace {
namespace slot = spec_operand::tensor_tensor;

struct Params { AluOp op; };

struct Body : ElementwiseBody {
  static void apply(const Step& s, const Lane&, int64_t, int64_t n, const float* const* in, float* out) {
    alu_with_tensor(s.params<Params>().op, in[0], in[1], out, n);
  }
};

#if NISA_HAS_AVX512_KERNELS
// Body on 16 lanes (fused_lane_loop.hpp), one instantiation per operator.
template <AluOp Op>
struct VectorBody : ElementwiseBody {
  NISA_AVX512_INLINE static __m512 vec(const Step&, const Lane&, int64_t, const __m512* in) { return alu16(Op, in[0], in[1]); }
};

template <simd::Kind K>
Kernel fused_kernel(AluOp op) {
  switch (op) {
    case AluOp::add: return &run_fused_lanes_as<VectorBody<AluOp::add>, K, K, K>;
    case AluOp::subtract: return &run_fused_lanes_as<VectorBody<AluOp::subtract>, K, K, K>;
    case AluOp::multiply: return &run_fused_lanes_as<VectorBody<AluOp::multiply>, K, K, K>;
    case AluOp::maximum: return &run_fused_lanes_as<VectorBody<AluOp::maximum>, K, K, K>;
    case AluOp::minimum: return &run_fused_lanes_as<VectorBody<AluOp::minimum>, K, K, K>;
    default: return nullptr;
  }
}

// The fused kernel when the step suits it: all three tiles f32 or all bf16.
Kernel fused_kernel(const Step& s, AluOp op) {
  if (!fused_loop_fits(s) || folds_result(s) || s.in[0]->dtype != s.dst->dtype || s.in[1]->dtype != s.dst->dtype) return nullptr;
  if (s.dst->dtype == Dtype::f32) return fused_kernel<simd::Kind::f32>(op);
  if (s.dst->dtype == Dtype::bf16) return fused_kernel<simd::Kind::bf16>(op);
  return nullptr;
}
#endif

struct BitBody : ElementwiseBitBody {
  static void apply(const Step& s, const uint32_t*, int64_t n, const uint32_t* const* in, uint32_t* out, uint32_t&) {
    for (int64_t i = 0; i < n; ++i) out[i] = bit_alu(s.params<Params>().op, in[0][i], in[1][i]);
  }
};

void decode(const DecodeContext& c, Step& s) {
  stream_tiles(c, s, c.tile(slot::dst), {c.tile(slot::data1), c.tile(slot::data2)});
  const Params& k = s.set_params(Params{c.enum_value<AluOp>(slot::op)});
  s.run = spec_enum::is_bitvec(k.op) ? run_bit_lanes<BitBody> : run_lanes<Body>;
#if NISA_HAS_AVX512_KERNELS
  if (Kernel fused = fused_kernel(s, k.op)) s.run = fused;
#endif
}

}  // namespace

const InstructionSemantics tensor_tensor_semantics{decode};

}  // namespace nisa
