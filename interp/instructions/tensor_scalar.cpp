// tensor_scalar dst, data, op0, operand0, reverse0, op1, operand1, reverse1
// (Vector; LANGUAGE.md 2.4, NKI 0.6 docstring): dst = (data op0 operand0) op1
// operand1; operands are scalars or [P, 1] tiles; reverse swaps an op's
// inputs; op1 = bypass skips the second stage. Arithmetic operators work in
// float32 (S2.1, alu.hpp); bitvec ones on bit patterns (bit_alu.hpp; the
// assembler checked that both ops are of one kind, with integer tiles).
#include <array>
#include <iterator>
#include <utility>

#include "alu.hpp"
#include "alu_vectors.hpp"
#include "bit_alu.hpp"
#include "fused_lane_loop.hpp"
#include "lane_loop.hpp"
#include "instructions.hpp"

namespace nisa {
namespace {
namespace slot = spec_operand::tensor_scalar;

struct Params {
  AluOp op0, op1;
  bool reverse0, reverse1;
};
enum : int { kOperand0, kOperand1 };  // Step::scalar

struct Body : ElementwiseBody {
  static void apply(const Step& s, const Lane& lane, int64_t, int64_t n, const float* const* in, float* out) {
    const Params& k = s.params<Params>();
    alu_with_scalar(k.op0, in[0], lane.scalar[kOperand0], k.reverse0, out, n);
    if (k.op1 != AluOp::bypass) alu_with_scalar(k.op1, out, lane.scalar[kOperand1], k.reverse1, out, n);
  }
};

#if NISA_HAS_AVX512_KERNELS
// Body's two stages on 16 lanes (fused_lane_loop.hpp), one instantiation per
// pair of operators (alu_vectorises: kVectorOps).
constexpr AluOp kVectorOps[] = {AluOp::bypass, AluOp::add, AluOp::subtract, AluOp::multiply, AluOp::maximum, AluOp::minimum};
constexpr std::size_t kVectorOpCount = std::size(kVectorOps);

template <AluOp Op0, AluOp Op1>
struct VectorBody : ElementwiseBody {
  NISA_AVX512_INLINE static __m512 vec(const Step& s, const Lane& lane, int64_t, const __m512* in) {
    const Params& k = s.params<Params>();
    const __m512 x = alu16_with_scalar(Op0, in[0], _mm512_set1_ps(lane.scalar[kOperand0]), k.reverse0);
    return alu16_with_scalar(Op1, x, _mm512_set1_ps(lane.scalar[kOperand1]), k.reverse1);
  }
};

template <simd::Kind K, std::size_t... I>
constexpr std::array<Kernel, sizeof...(I)> fused_table(std::index_sequence<I...>) {
  return {&run_fused_lanes_as<VectorBody<kVectorOps[I / kVectorOpCount], kVectorOps[I % kVectorOpCount]>, K,
                              simd::Kind::none, K>...};
}
template <simd::Kind K>
constexpr auto kFusedKernels = fused_table<K>(std::make_index_sequence<kVectorOpCount * kVectorOpCount>{});

std::size_t vector_op_index(AluOp op) {
  for (std::size_t i = 0; i < kVectorOpCount; ++i)
    if (kVectorOps[i] == op) return i;
  return kVectorOpCount;
}

// The fused kernel when the step suits it: data and dst both f32 or both
// bf16, both operators in kVectorOps (tensor_scalar never reduces).
Kernel fused_kernel(const Step& s, const Params& k) {
  const std::size_t i0 = vector_op_index(k.op0), i1 = vector_op_index(k.op1);
  if (i0 == kVectorOpCount || i1 == kVectorOpCount || !fused_loop_fits(s) || folds_result(s) ||
      s.in[0]->dtype != s.dst->dtype)
    return nullptr;
  const std::size_t i = i0 * kVectorOpCount + i1;
  if (s.dst->dtype == Dtype::f32) return kFusedKernels<simd::Kind::f32>[i];
  if (s.dst->dtype == Dtype::bf16) return kFusedKernels<simd::Kind::bf16>[i];
  return nullptr;
}
#endif

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
  stream_tiles(c, s, c.tile(slot::dst), {c.tile(slot::data)});
  const Params& k = s.set_params(Params{c.enum_value<AluOp>(slot::op0), c.enum_value<AluOp>(slot::op1),
                                        c.boolean(slot::reverse0), c.boolean(slot::reverse1)});
  s.scalar[kOperand0] = c.partition_scalar(slot::operand0, 0.0f);
  s.scalar[kOperand1] = c.partition_scalar(slot::operand1, 0.0f);
  const bool bitvec = spec_enum::is_bitvec(k.op0) || spec_enum::is_bitvec(k.op1);
  s.run = bitvec ? run_bit_lanes<BitBody> : run_lanes<Body>;
#if NISA_HAS_AVX512_KERNELS
  if (Kernel fused = bitvec ? nullptr : fused_kernel(s, k)) s.run = fused;
#endif
}

}  // namespace

const InstructionSemantics tensor_scalar_semantics{decode};

}  // namespace nisa
