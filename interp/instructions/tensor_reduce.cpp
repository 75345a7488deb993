// tensor_reduce dst, data, op, negate (Vector; LANGUAGE.md 2.4, NKI 0.6
// docstring): dst[p, 0] = the reduction of all free elements of data[p].
// Arithmetic operators fold in float32, left to right (S3's folds; subtract
// as NumPy's subtract.reduce: data[0] - data[1] - ...), negated when
// `negate`; bitvec ones fold bit patterns (bit_alu.hpp).
#include "../bit_alu.hpp"
#include "../lane_loop.hpp"
#include "instructions.hpp"

namespace nisa {
namespace {

struct Body {
  static void begin(const Step&, int64_t, Lane&) {}
  static void apply(const Step& s, const Lane&, int64_t first, int64_t n, const float* const* in, float* out) {
    for (int64_t i = 0; i < n; ++i) out[i] = in[0][i];
    // subtract folds from -0.0 (fold_start): its first term enters negated.
    if (s.reduce_op == ReduceOp::subtract && first == 0 && n > 0) out[0] = -out[0];
  }
  static void end(const Step& s, Machine&, int64_t p, float r) {
    const float v = s.flag0 ? -r : r;
    s.final_dst->store(s.final_dst->partition(p), s.final_dst->element_stride, 1, &v);
  }
};

struct BitBody {
  static uint32_t start(const Step& s) { return bit_reduce_identity(s.reduce_op); }
  static void apply(const Step& s, const uint32_t*, int64_t n, const uint32_t* const* in, uint32_t*, uint32_t& r) {
    for (int64_t i = 0; i < n; ++i) r = bit_combine(s.reduce_op, r, in[0][i]);
  }
  static void end(const Step& s, int64_t p, uint32_t r) {
    store_bits_for(s.final_dst->dtype)(s.final_dst->partition(p), s.final_dst->element_stride, 1, &r);
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
  set_reduce_op(c, s, "op", ReduceOp::add);
  s.flag0 = c.boolean("negate");
  s.result_in_final_dst = true;
  s.run = spec_enum::is_bitvec(s.reduce_op) ? run_bit_lanes<BitBody, false> : run_lanes<Body, false>;
}

}  // namespace nisa
