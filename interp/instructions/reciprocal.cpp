// reciprocal dst, data (Vector; S4.27, NKI 0.6 docstring): dst = 1.0 / data
// in float32 (S2.1: IEEE division, so 1/0 = inf, 1/-0 = -inf, 1/inf = 0).
#include "lane_loop.hpp"
#include "instructions.hpp"

namespace nisa {
namespace {
namespace slot = spec_operand::reciprocal;

struct Body : ElementwiseBody {
  static void apply(const Step&, const Lane&, int64_t, int64_t n, const float* const* in, float* out) {
    for (int64_t i = 0; i < n; ++i) out[i] = 1.0f / in[0][i];
  }
};

void decode(const DecodeContext& c, Step& s) {
  stream_tiles(c, s, c.tile(slot::dst), {c.tile(slot::data)});
  s.run = run_lanes<Body>;
}

}  // namespace

const InstructionSemantics reciprocal_semantics{decode};

}  // namespace nisa
