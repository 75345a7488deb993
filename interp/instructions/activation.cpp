// activation dst, op, data, bias, scale, reduce_op, reduce_res, reduce_cmd
// (Scalar; S4.6): dst = op(data*scale + bias) in float32; scale and bias are
// scalars or [P, 1] tiles. The sum of the activated values (before the dst
// cast) feeds the Scalar accumulator (S3; add only).
#include "../activation_functions.hpp"
#include "../lane_loop.hpp"
#include "instructions.hpp"

namespace nisa {
namespace {

struct Body : AccumulatingEnd {
  static void begin(const Step&, int64_t, Lane&) {}
  static void apply(const Step& s, const Lane& lane, int64_t, int64_t n, const float* const* in, float* out) {
    const float scale = lane.scalar[0], bias = lane.scalar[1];
    const float* x = in[0];
    for (int64_t i = 0; i < n; ++i) {
      const float scaled = x[i] * scale;  // two float32 roundings, no fused multiply-add
      out[i] = scaled + bias;
    }
    apply_activation(s.activation, out, n, 0.0f);
  }
};

}  // namespace

void decode_activation(const DecodeContext& c, Step& s) {
  const TileAccess* data = c.tile("data");
  stream_tiles(c, s, c.tile("dst"), {data});
  s.activation = activation_fn(c, "op");
  s.prestage = Step::Prestage::scale_bias;
  s.scalar[0] = c.partition_scalar("scale", 1.0f);
  s.scalar[1] = c.partition_scalar("bias", 0.0f);
  accumulate_into(c, s, AccumulatorEngine::scalar, data->first_partition, ReduceOp::add);
  s.run = run_lanes<Body>;
}

}  // namespace nisa
