// tensor_scalar's AVX-512 kernels: the rule's Body (instructions/
// tensor_scalar.cpp) on 16 lanes in the fused lane loop, the same bits.
#include "tensor_scalar_avx512.hpp"

#include <array>
#include <iterator>
#include <utility>

#include "alu_vectors.hpp"
#include "fused_lane_loop.hpp"
#include "tensor_scalar.hpp"

namespace nisa {

#if NISA_HAS_AVX512_KERNELS
namespace {
using namespace tensor_scalar;

// The rule's Body's two stages on 16 lanes (fused_lane_loop.hpp), one
// instantiation per pair of operators (alu_vectorises: kVectorOps).
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

}  // namespace

// The fused kernel when the step suits it: data and dst both f32 or both
// bf16, both operators in kVectorOps (tensor_scalar never reduces).
Kernel tensor_scalar_avx512_kernel(const Step& s) {
  const Params& k = s.params<Params>();
  const std::size_t i0 = vector_op_index(k.op0), i1 = vector_op_index(k.op1);
  if (i0 == kVectorOpCount || i1 == kVectorOpCount || !fused_loop_fits(s) || folds_result(s) ||
      s.in[0]->dtype != s.dst->dtype)
    return nullptr;
  const std::size_t i = i0 * kVectorOpCount + i1;
  if (s.dst->dtype == Dtype::f32) return kFusedKernels<simd::Kind::f32>[i];
  if (s.dst->dtype == Dtype::bf16) return kFusedKernels<simd::Kind::bf16>[i];
  return nullptr;
}
#else
Kernel tensor_scalar_avx512_kernel(const Step&) { return nullptr; }
#endif

}  // namespace nisa
