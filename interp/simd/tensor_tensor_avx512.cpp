// tensor_tensor's AVX-512 kernels: the rule's Body (instructions/
// tensor_tensor.cpp) on 16 lanes in the fused lane loop, the same bits.
#include "tensor_tensor_avx512.hpp"

#include "alu_vectors.hpp"
#include "fused_lane_loop.hpp"

namespace nisa {

#if NISA_HAS_AVX512_KERNELS
namespace {

// The rule's Body on 16 lanes (fused_lane_loop.hpp), one instantiation per operator.
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

}  // namespace

// The fused kernel when the step suits it: all three tiles f32 or all bf16.
Kernel tensor_tensor_avx512_kernel(const Step& s, AluOp op) {
  if (!fused_loop_fits(s) || folds_result(s) || s.in[0]->dtype != s.dst->dtype || s.in[1]->dtype != s.dst->dtype) return nullptr;
  if (s.dst->dtype == Dtype::f32) return fused_kernel<simd::Kind::f32>(op);
  if (s.dst->dtype == Dtype::bf16) return fused_kernel<simd::Kind::bf16>(op);
  return nullptr;
}
#else
Kernel tensor_tensor_avx512_kernel(const Step&, AluOp) { return nullptr; }
#endif

}  // namespace nisa
