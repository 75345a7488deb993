// tensor_tensor dst, data1, data2, op (Vector; LANGUAGE.md 2.4, NKI 0.6
// docstring): dst = data1 op data2 elementwise; arithmetic operators in
// float32 (S2.1, alu.hpp), bitvec ones on bit patterns (bit_alu.hpp).
#include "../alu.hpp"
#include "../bit_alu.hpp"
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

struct BitBody {
  static uint32_t start(const Step&) { return 0; }
  static void apply(const Step& s, const uint32_t*, int64_t n, const uint32_t* const* in, uint32_t* out, uint32_t&) {
    for (int64_t i = 0; i < n; ++i) out[i] = bit_alu(s.op0, in[0][i], in[1][i]);
  }
  static void end(const Step&, int64_t, uint32_t) {}
};

}  // namespace

void decode_tensor_tensor(const DecodeContext& c, Step& s) {
  stream_tiles(c, s, c.tile("dst"), {c.tile("data1"), c.tile("data2")});
  s.op0 = alu_op(c, "op");
  s.run = spec_enum::is_bitvec(s.op0) ? run_bit_lanes<BitBody> : run_lanes<Body>;
}

}  // namespace nisa
