// tensor_tensor dst, data1, data2, op (Vector; LANGUAGE.md 2.4):
// dst = data1 op data2 elementwise, in float32 (S2.1).
#include "../alu.hpp"
#include "../lane_loop.hpp"
#include "instructions.hpp"

namespace nisa {
namespace {

struct Body {
  static void begin(const Step&, int64_t, Lane&) {}
  static void apply(const Step& s, const Lane&, int64_t, int64_t n, const float* const* in, float* out) {
    alu_with_tensor(s.op0, in[0], in[1], out, n);
  }
  static void end(const Step&, Machine&, int64_t, float) {}
};

}  // namespace

void decode_tensor_tensor(const DecodeContext& c, Step& s) {
  stream_tiles(c, s, c.tile("dst"), {c.tile("data1"), c.tile("data2")});
  s.op0 = alu_op(c, "op");
  s.run = run_lanes<Body>;
}

}  // namespace nisa
