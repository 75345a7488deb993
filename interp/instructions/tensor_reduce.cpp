// tensor_reduce dst, data, op, negate (Vector; LANGUAGE.md 2.4): dst[p, 0] =
// the reduction of all free elements of data[p] in float32, left to right
// (S3's folds), negated when `negate`.
#include "../lane_loop.hpp"
#include "instructions.hpp"

namespace nisa {
namespace {

struct Body {
  static void begin(const Step&, int64_t, Lane&) {}
  static void apply(const Step&, const Lane&, int64_t, int64_t n, const float* const* in, float* out) {
    for (int64_t i = 0; i < n; ++i) out[i] = in[0][i];
  }
  static void end(const Step& s, Machine&, int64_t p, float r) {
    const float v = s.flag0 ? -r : r;
    s.final_dst->store(s.final_dst->partition(p), s.final_dst->element_stride, 1, &v);
  }
};

}  // namespace

void decode_tensor_reduce(const DecodeContext& c, Step& s) {
  // The free elements stream through the lane loop into the fold only; the
  // [P, 1] result is written per partition after its last element was read
  // (S1.6: dst may overlap data).
  const TileAccess* data = c.tile("data");
  stream_tiles(c, s, data, {data});
  s.final_dst = c.tile("dst");
  s.reduce_op = reduce_op(c, "op");
  s.flag0 = c.boolean("negate");
  s.result_in_final_dst = true;
  s.run = run_lanes<Body, false>;
}

}  // namespace nisa
