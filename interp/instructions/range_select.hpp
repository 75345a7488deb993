// range_select's step as its rule decodes it (range_select.cpp) and its
// AVX-512 kernel reads it (simd/range_select_avx512.cpp): the parameter
// struct, the Step::scalar slots and each partition's kept run.
#pragma once
#include <cstdint>

#include "lane_loop.hpp"

namespace nisa::range_select {

struct Params {
  CompareOp comp_op0, comp_op1;
  float on_false_value;  // fp32.min (S4.4); not per partition
  int64_t range_start;
};
enum : int { kBound0, kBound1 };  // Step::scalar

// Partition lane.p's kept run (the rule's Body::begin): lane.keep_first and
// lane.keep_last, the flat free indices i whose idx = range_start + i
// passes both comparisons with the partition's bounds.
void keep_run(const Step& s, Lane& lane);

}  // namespace nisa::range_select
