// select_reduce dst, predicate, on_true, on_false, reduce_res, reduce_cmd,
// reduce_op, reverse_pred (Vector; seed 002, S4.3):
// result = where(predicate != 0 (reversed: == 0), on_true, on_false[p]),
// written to dst; its maximum feeds the Vector accumulator (S3).
#include "../lane_loop.hpp"
#include "instructions.hpp"

namespace nisa {
namespace {

struct Body : AccumulatingEnd {
  static void begin(const Step&, int64_t, Lane&) {}
  static void apply(const Step& s, const Lane& lane, int64_t, int64_t n, const float* const* in, float* out) {
    const float* pred = in[0];
    const float* on_true = in[1];
    const float on_false = lane.scalar[0];
    // Both values are read before the choice so the loop compiles to a blend.
    if (s.flag0) {
      for (int64_t i = 0; i < n; ++i) {
        const float t = on_true[i];
        out[i] = pred[i] == 0.0f ? t : on_false;
      }
    } else {
      for (int64_t i = 0; i < n; ++i) {
        const float t = on_true[i];
        out[i] = pred[i] == 0.0f ? on_false : t;
      }
    }
  }
};

}  // namespace

void decode_select_reduce(const DecodeContext& c, Step& s) {
  const TileAccess* on_true = c.tile("on_true");
  stream_tiles(c, s, c.tile("dst"), {c.tile("predicate"), on_true});
  s.scalar[0] = c.partition_scalar("on_false", 0.0f);
  s.flag0 = c.boolean("reverse_pred");
  accumulate_into(c, s, AccumulatorEngine::vector, on_true->first_partition, ReduceOp::maximum);
  s.run = run_lanes<Body>;
}

}  // namespace nisa
