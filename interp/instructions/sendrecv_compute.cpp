// sendrecv_compute src, dst, send_to_rank, recv_from_rank, reduce_op (DMA;
// SEMANTICS S16.6): each side sends its src to the other and, when they meet
// (sendrecv.hpp), writes dst = reduce_op(its src, the other's src): both
// converted to float32 (S2.1), the operator in float32 (alu.hpp: NaN
// propagates through maximum and minimum), the result converted to dst's
// dtype (S2.2, S2.3). Both sources are read before either dst is written.
#include <vector>

#include "alu.hpp"
#include "bit_copy.hpp"
#include "instructions.hpp"
#include "sendrecv.hpp"

namespace nisa {
namespace {
namespace slot = spec_operand::sendrecv_compute;

// Every element of `t` in row-major order, as float32.
std::vector<float> values(const TileAccess& t) {
  std::vector<float> out(static_cast<std::size_t>(t.partitions * t.elements));
  float* to = out.data();
  for (int64_t p = 0; p < t.partitions; ++p)
    for (int64_t i = 0; i < t.elements; ++i) t.load(element_address(t, p, i), t.element_stride, 1, to++);
  return out;
}

void reduce_into(const Step& s, const std::vector<float>& own, const std::vector<float>& other) {
  const TileAccess& dst = *s.dst;
  const AluOp op = s.params<PairParams>().op;
  std::size_t k = 0;
  for (int64_t p = 0; p < dst.partitions; ++p)
    for (int64_t i = 0; i < dst.elements; ++i, ++k) {
      const float r = alu(op, own[k], other[k]);
      dst.store(element_address(dst, p, i), dst.element_stride, 1, &r);
    }
}

void exchange_reduce(const Step& a, const Step& b) {
  const std::vector<float> from_a = values(*a.in[0]), from_b = values(*b.in[0]);
  reduce_into(a, from_a, from_b);
  reduce_into(b, from_b, from_a);
}

void meets_elsewhere(const Step&, Machine&) {}

void decode(const DecodeContext& c, Step& s) {
  stream_tiles(c, s, c.tile(slot::dst), {c.tile(slot::src)});
  s.set_params(PairParams{exchange_reduce, c.enum_value<AluOp>(slot::reduce_op)});
  s.run = meets_elsewhere;
}

}  // namespace

const InstructionSemantics sendrecv_compute_semantics{decode};

}  // namespace nisa
