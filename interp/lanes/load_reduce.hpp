// NKI's reduce_cmd=load_reduce and reduce_res_negate for the accumulating
// instructions of issue 13 (S3, S4.22-S4.26): their reduce_cmd operand is of
// the spec's `reduce_cmd_load` enum, reduce_cmd's values in the same order
// plus load_reduce. The step keeps reset_reduce for load_reduce (the lanes are
// written without being read, as --strict and the timeline must know); the
// instruction's end then starts the lanes from reduce_init[p] instead of the
// identity.
#pragma once
#include <cstdint>

#include "decode_context.hpp"

namespace nisa {

// Index of load_reduce in the reduce_cmd_load enum (reduce_cmd's four first).
inline constexpr int64_t kLoadReduce = 4;

struct LoadReduce {
  bool load = false;        // reduce_cmd=load_reduce
  bool negate_res = false;  // reduce_res = -acc (the lanes keep acc)
};

// Sets s.accumulator, first_lane and reduce_cmd (load_reduce as
// reset_reduce); returns whether the command is load_reduce.
bool decode_reduce_cmd(const DecodeContext& c, Step& s, OperandSlot reduce_cmd, AccumulatorEngine engine,
                       int64_t first_lane);

// S3's update of lane p with this instruction's reduction r, from `init`
// instead of the identity when k.load; then reduce_res[p, 0] (negated when
// k.negate_res).
void update_accumulator_from(const Step& s, Machine& m, int64_t p, float r, const LoadReduce& k, float init);

}  // namespace nisa
