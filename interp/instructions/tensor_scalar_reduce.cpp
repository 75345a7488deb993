// tensor_scalar_reduce dst, data, op0, operand0, reduce_op, reduce_res,
// reverse0, reduce_cmd, reduce_init, reduce_res_negate (Vector; S4.24, NKI
// 0.6 docstring): dst = op0(data, operand0) (op0(operand0, data) when
// reverse0) in float32; the results, before dst's conversion, reduced by
// reduce_op feed the Vector accumulator (S3; reset_reduce by default,
// load_reduce starts from reduce_init); reduce_res receives the lanes,
// negated when reduce_res_negate (the lanes are not).
#include "alu.hpp"
#include "lane_loop.hpp"
#include "load_reduce.hpp"
#include "instructions.hpp"
#include "tensor_indirection.hpp"

namespace nisa {
namespace {
namespace slot = spec_operand::tensor_scalar_reduce;

struct Params {
  AluOp op0;
  bool reverse0;
  LoadReduce accumulator;
};
enum : int { kOperand0, kReduceInit };  // Step::scalar

struct Body : ElementwiseBody {
  static void apply(const Step& s, const Lane& lane, int64_t, int64_t n, const float* const* in, float* out) {
    const Params& k = s.params<Params>();
    alu_with_scalar(k.op0, in[0], lane.scalar[kOperand0], k.reverse0, out, n);
  }
  static void end(const Step& s, Machine& m, int64_t p, float r) {
    const Params& k = s.params<Params>();
    update_accumulator_from(s, m, p, r, k.accumulator, k.accumulator.load ? s.scalar[kReduceInit].at(p) : 0.0f);
  }
};

void decode(const DecodeContext& c, Step& s) {
  const TileAccess* data = c.tile(slot::data);
  stream_tiles(c, s, streamed_tile(c, slot::dst), {streamed_tile(c, slot::data)});
  s.scalar[kOperand0] = c.partition_scalar(slot::operand0, 0.0f);
  const bool load = decode_reduce_cmd(c, s, slot::reduce_cmd, AccumulatorEngine::vector, data->first_partition);
  if (c.is_tile(slot::reduce_res)) s.reduce_res = c.tile(slot::reduce_res);
  if (load) s.scalar[kReduceInit] = c.partition_scalar(slot::reduce_init, 0.0f);
  set_reduce_op(c, s, slot::reduce_op, ReduceOp::add);
  s.set_params(Params{c.enum_value<AluOp>(slot::op0), c.boolean(slot::reverse0),
                      LoadReduce{load, c.boolean(slot::reduce_res_negate)}});
  s.run = run_lanes<Body>;
  finish_tensor_indirection(c, s, slot::dst, {slot::data});
}

}  // namespace

const InstructionSemantics tensor_scalar_reduce_semantics{decode};

}  // namespace nisa
