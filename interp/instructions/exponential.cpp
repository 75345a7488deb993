// exponential dst, src, max_value, reduce_res, reduce_cmd, reduce_init
// (Vector, NeuronCore-v4+; S4.26, NKI 0.6 docstring): dst = exp(src -
// max_value) in float32 (the subtraction rounded, then S5's exp); the sum of
// the float32 results feeds the Vector accumulator (S3; add only; idle by
// default, which leaves the lanes undefined under --strict; load_reduce
// starts from reduce_init).
#include "activation_functions.hpp"
#include "lane_loop.hpp"
#include "load_reduce.hpp"
#include "instructions.hpp"
#include "tensor_indirection.hpp"

namespace nisa {
namespace {
namespace slot = spec_operand::exponential;

struct Params {
  LoadReduce accumulator;
};
enum : int { kMaxValue, kReduceInit };  // Step::scalar

struct Body : ElementwiseBody {
  static void apply(const Step&, const Lane& lane, int64_t, int64_t n, const float* const* in, float* out) {
    const float max_value = lane.scalar[kMaxValue];
    for (int64_t i = 0; i < n; ++i) out[i] = in[0][i] - max_value;
    apply_activation(ActivationFn::exp, out, n, 0.0f);
  }
  static void end(const Step& s, Machine& m, int64_t p, float r) {
    const LoadReduce& k = s.params<Params>().accumulator;
    update_accumulator_from(s, m, p, r, k, k.load ? s.scalar[kReduceInit].at(p) : 0.0f);
  }
};

void decode(const DecodeContext& c, Step& s) {
  const TileAccess* src = c.tile(slot::src);
  stream_tiles(c, s, streamed_tile(c, slot::dst), {streamed_tile(c, slot::src)});
  s.scalar[kMaxValue] = c.partition_scalar(slot::max_value, 0.0f);
  const bool load =
      decode_reduce_cmd(c, s, slot::reduce_cmd, AccumulatorEngine::vector, src->first_partition);
  if (c.is_tile(slot::reduce_res)) s.reduce_res = c.tile(slot::reduce_res);
  if (load) s.scalar[kReduceInit] = c.partition_scalar(slot::reduce_init, 0.0f);
  s.reduces = true;
  s.reduce_op = ReduceOp::add;
  s.set_params(Params{LoadReduce{load, false}});
  s.run = run_lanes<Body>;
  finish_tensor_indirection(c, s, slot::dst, {slot::src});
}

}  // namespace

const InstructionSemantics exponential_semantics{decode};

}  // namespace nisa
