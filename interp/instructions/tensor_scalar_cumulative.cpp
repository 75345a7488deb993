// tensor_scalar_cumulative dst, src, op0, op1, imm0, imm1, reduce_cmd
// (Vector; S4.22, NKI 0.6 docstring): per partition p, the Vector
// accumulator lane is the running register: reset_reduce starts it at op1's
// identity (add, subtract: 0; multiply: 1; maximum: -inf; minimum: +inf),
// load_reduce at imm1[p], reduce keeps it; then along the free elements in
// flat row-major order
//   reg = op1(op0(src[i], imm0), reg);  dst[i] = reg
// in float32, and the lane keeps the last reg (S3: the register is shared with
// the other Vector accumulating instructions).
#include <limits>

#include "alu.hpp"
#include "lanes.hpp"
#include "load_reduce.hpp"
#include "machine.hpp"
#include "instructions.hpp"
#include "tensor_indirection.hpp"

namespace nisa {
namespace {
namespace slot = spec_operand::tensor_scalar_cumulative;

struct Params {
  AluOp op0, op1;
  bool load;  // reduce_cmd=load_reduce (the step holds reset_reduce)
};
enum : int { kImm0, kImm1 };  // Step::scalar

float register_reset(AluOp op1) {
  constexpr float inf = std::numeric_limits<float>::infinity();
  switch (op1) {
    case AluOp::multiply: return 1.0f;
    case AluOp::maximum: return -inf;
    case AluOp::minimum: return inf;
    default: return 0.0f;  // add, subtract (the spec allows no other op1)
  }
}

// Batches of kLaneBatch elements: src's batch is read before dst's is
// written, so dst may be src (S1.6; stream_tiles stages dst otherwise).
void run(const Step& s, Machine& m) {
  const Params& k = s.params<Params>();
  float in[kLaneBatch], out[kLaneBatch];
  const TileAccess& src = *s.in[0];
  const TileAccess& dst = *s.dst;
  for (int64_t p = 0; p < s.partitions; ++p) {
    float& lane = m.vector_accumulator[static_cast<std::size_t>(s.first_lane + p)];
    float reg = k.load ? s.scalar[kImm1].at(p) : s.reduce_cmd == ReduceCmd::reduce ? lane : register_reset(k.op1);
    const float imm0 = s.scalar[kImm0].at(p);
    for (int64_t row = 0; row < s.rows(); ++row) {
      const auto ri = static_cast<std::size_t>(row);
      for (int64_t c = 0; c < s.row_length; c += kLaneBatch) {
        const int64_t n = s.row_length - c < kLaneBatch ? s.row_length - c : kLaneBatch;
        src.load(src.partition(p) + src.row_offsets[ri] + c * src.element_stride, src.element_stride, n, in);
        for (int64_t i = 0; i < n; ++i) {
          reg = alu(k.op1, alu(k.op0, in[i], imm0), reg);
          out[i] = reg;
        }
        dst.store(dst.partition(p) + dst.row_offsets[ri] + c * dst.element_stride, dst.element_stride, n, out);
      }
    }
    lane = reg;
  }
}

void decode(const DecodeContext& c, Step& s) {
  const TileAccess* src = c.tile(slot::src);
  stream_tiles(c, s, streamed_tile(c, slot::dst), {streamed_tile(c, slot::src)});
  const bool load = decode_reduce_cmd(c, s, slot::reduce_cmd, AccumulatorEngine::vector, src->first_partition);
  s.scalar[kImm0] = c.partition_scalar(slot::imm0, 0.0f);
  if (load) s.scalar[kImm1] = c.partition_scalar(slot::imm1, 0.0f);
  s.set_params(Params{c.enum_value<AluOp>(slot::op0), c.enum_value<AluOp>(slot::op1), load});
  s.run = run;
  finish_tensor_indirection(c, s, slot::dst, {slot::src});
}

}  // namespace

const InstructionSemantics tensor_scalar_cumulative_semantics{decode};

}  // namespace nisa
