// The reductions of S3: identities, left-to-right folds over float32 results,
// and the accumulator update shared by the Vector and Scalar engines.
#pragma once
#include <cmath>
#include <cstdint>
#include <limits>

#include "step.hpp"

namespace nisa {

// S2.1: NaN propagates through maximum/minimum (np.maximum semantics).
inline float nan_max(float a, float b) { return (a != a || a > b) ? a : b; }
inline float nan_min(float a, float b) { return (a != a || a < b) ? a : b; }

inline float combine(ReduceOp op, float a, float b) {
  switch (op) {
    case ReduceOp::add: return a + b;
    case ReduceOp::maximum: return nan_max(a, b);
    case ReduceOp::minimum: return nan_min(a, b);
    case ReduceOp::abs_max: return nan_max(std::fabs(a), std::fabs(b));  // S3
    case ReduceOp::abs_min: return nan_min(std::fabs(a), std::fabs(b));
    case ReduceOp::subtract: return a - b;
    case ReduceOp::multiply: return a * b;
    // NKI's logical operators: 1.0 or 0.0, inputs true when nonzero.
    case ReduceOp::logical_and: return (a != 0.0f && b != 0.0f) ? 1.0f : 0.0f;
    case ReduceOp::logical_or: return (a != 0.0f || b != 0.0f) ? 1.0f : 0.0f;
    case ReduceOp::logical_xor: return ((a != 0.0f) != (b != 0.0f)) ? 1.0f : 0.0f;
    case ReduceOp::bitwise_and:  // bit patterns: bit_alu.hpp
    case ReduceOp::bitwise_or:
    case ReduceOp::bitwise_xor: break;
  }
  return a;
}

// S3 identities (and NKI's: multiply and logical_and 1, the others 0). The
// accumulator's `reset` value for add is 0. subtract has none: it folds as
// NumPy's subtract.reduce, data[0] - data[1] - ... (tensor_reduce).
inline float reduce_identity(ReduceOp op) {
  constexpr float inf = std::numeric_limits<float>::infinity();
  switch (op) {
    case ReduceOp::maximum: return -inf;
    case ReduceOp::minimum: return inf;
    case ReduceOp::abs_min: return inf;
    case ReduceOp::multiply:
    case ReduceOp::logical_and: return 1.0f;
    case ReduceOp::add:
    case ReduceOp::abs_max:
    case ReduceOp::subtract:
    case ReduceOp::logical_or:
    case ReduceOp::logical_xor:
    case ReduceOp::bitwise_and:
    case ReduceOp::bitwise_or:
    case ReduceOp::bitwise_xor: break;
  }
  return 0.0f;
}

// Folds n values into r. add: strictly left to right (S3). maximum/minimum
// are exact whatever the order, so they use independent partial results the
// compiler can vectorise.
float fold(ReduceOp op, float r, const float* v, int64_t n);

// fold(maximum, r, v, n) that also copies v to `copy` in the same pass
// (nothing to copy when copy == v).
float fold_max_copying(float r, const float* v, float* copy, int64_t n);

// `add` folds of kFoldLanes partitions at once: r[k] = fold(add, r[k], v[k], n)
// for k < lanes. Each partition's sum stays left to right (S3), bit for bit;
// the partitions' chains are independent, so interleaving them hides the
// latency of each float add (a sequential sum is latency-bound).
inline constexpr int kFoldLanes = 8;
void fold_add_lanes(float* r, const float* const* v, int lanes, int64_t n);

// S3: applies reduce_cmd with this instruction's reduction r to lane `lane`
// of the step's accumulator, then writes reduce_res[p, 0] if present.
void update_accumulator(const Step& s, Machine& m, int64_t p, float r);

}  // namespace nisa
