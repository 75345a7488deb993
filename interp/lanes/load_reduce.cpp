#include "load_reduce.hpp"

#include "machine.hpp"
#include "reduction.hpp"

namespace nisa {

bool decode_reduce_cmd(const DecodeContext& c, Step& s, OperandSlot reduce_cmd, AccumulatorEngine engine,
                       int64_t first_lane) {
  const int64_t cmd = c.operand(reduce_cmd).integer;
  s.accumulator = engine;
  s.first_lane = first_lane;
  s.reduce_cmd = cmd == kLoadReduce ? ReduceCmd::reset_reduce : static_cast<ReduceCmd>(cmd);
  return cmd == kLoadReduce;
}

void update_accumulator_from(const Step& s, Machine& m, int64_t p, float r, const LoadReduce& k, float init) {
  float* acc = s.accumulator == AccumulatorEngine::vector ? m.vector_accumulator.data() : m.scalar_accumulator.data();
  float& lane = acc[s.first_lane + p];
  if (k.load) {
    lane = combine(s.reduce_op, init, r);
  } else {
    switch (s.reduce_cmd) {
      case ReduceCmd::idle: break;
      case ReduceCmd::reset: lane = reduce_identity(s.reduce_op); break;
      case ReduceCmd::reset_reduce: lane = combine(s.reduce_op, reduce_identity(s.reduce_op), r); break;
      case ReduceCmd::reduce: lane = combine(s.reduce_op, lane, r); break;
    }
  }
  if (s.reduce_res != nullptr) {
    const float v = k.negate_res ? -lane : lane;
    s.reduce_res->store(s.reduce_res->partition(p), s.reduce_res->element_stride, 1, &v);
  }
}

}  // namespace nisa
