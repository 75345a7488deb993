// The one per-element loop of the float32 engines (Vector, Scalar; S2.1):
// partitions x rows x batches of at most kLaneBatch elements. Inputs are
// converted to float32 (or read in place when they already are contiguous
// float32), the instruction's Body computes the batch, the results feed the
// reduction (S3) and are converted to dst's dtype. Instructions supply only
// the Body:
//
//   struct Body {
//     // per partition: values that do not depend on the element
//     static void begin(const Step&, int64_t p, Lane&);
//     // out[i] for i < n; `first` is the flat free index of in[k][0]
//     static void apply(const Step&, const Lane&, int64_t first, int64_t n,
//                       const float* const* in, float* out);
//     // after the partition: r is its reduction (S3); AccumulatingEnd updates
//     // the accumulator and reduce_res
//     static void end(const Step&, Machine&, int64_t p, float r);
//   };
//
// A Body may also fuse a maximum-reduction into its pass over the batch:
//     static void apply_max(const Step&, const Lane&, int64_t first, int64_t n,
//                           const float* const* in, float* out, float& r);
// (r = fold(maximum, r, out, n) as well as apply), used when the step folds
// with maximum.
#pragma once
#include <cstdint>

#include "reduction.hpp"
#include "step.hpp"

namespace nisa {

// Per-partition values of a step (filled by the generic loop and Body::begin).
struct Lane {
  int64_t p = 0;
  float scalar[3] = {0, 0, 0};  // Step::scalar[k] at this partition
  int64_t keep_first = 0, keep_last = -1;  // range_select: kept flat indices
};

// Partition p's Lane with its streamed scalars (Step::scalar) loaded;
// Body::begin fills in the rest.
inline Lane lane_at(const Step& s, int64_t p) {
  Lane lane;
  lane.p = p;
  for (int k = 0; k < 3; ++k)
    if (s.scalar[k].present) lane.scalar[k] = s.scalar[k].at(p);
  return lane;
}

// The float32 start of an instruction's own reduction r: -0.0 for add (so a
// lone -0.0 survives, as np.sum) and subtract (whose first term the
// instruction negates: -0.0 - -x is x, for either zero too), the S3 identity
// otherwise.
inline float fold_start(ReduceOp op) {
  return op == ReduceOp::add || op == ReduceOp::subtract ? -0.0f : reduce_identity(op);
}

// Reads float32 directly from memory: contiguous, aligned float32.
inline bool reads_in_place(const TileAccess& t) {
  return t.dtype == Dtype::f32 && t.unit_stride() && reinterpret_cast<uintptr_t>(t.base) % alignof(float) == 0 &&
         t.partition_stride % 4 == 0;
}

template <class Body>
constexpr bool kFusesMax = requires(const Step& s, const Lane& l, const float* const* in, float* out, float& r) {
  Body::apply_max(s, l, int64_t{0}, int64_t{0}, in, out, r);
};

// kStoresDst false: the results only feed the reduction (tensor_reduce).
// Partitions run in blocks: of kFoldLanes when the reduction is an add (its
// per-partition chains then fold together, fold_add_lanes), else of one.
template <class Body, bool kStoresDst = true>
void run_lanes(const Step& s, Machine& m) {
  float in_buffer[3][kLaneBatch];
  float out_buffer[kFoldLanes][kLaneBatch];
  const bool reducing = s.reduce_cmd == ReduceCmd::reset_reduce || s.reduce_cmd == ReduceCmd::reduce ||
                        s.accumulator == AccumulatorEngine::none;  // tensor_reduce: always
  const bool folds = reducing && s.reduces;
  const bool adds = folds && s.reduce_op == ReduceOp::add;
  const int64_t block = adds ? kFoldLanes : 1;
  const bool fused_max = kFusesMax<Body> && folds && s.reduce_op == ReduceOp::maximum;
  const bool in_place_out = kStoresDst && reads_in_place(*s.dst);
  bool in_place_in[3] = {false, false, false};
  for (int k = 0; k < s.inputs; ++k) in_place_in[k] = reads_in_place(*s.in[k]);
  const int64_t rows = s.rows(), length = s.row_length;

  for (int64_t p0 = 0; p0 < s.partitions; p0 += block) {
    const int lanes = static_cast<int>(s.partitions - p0 < block ? s.partitions - p0 : block);
    Lane lane[kFoldLanes];
    float r[kFoldLanes];
    for (int b = 0; b < lanes; ++b) {
      const int64_t p = p0 + b;
      lane[b] = lane_at(s, p);
      Body::begin(s, p, lane[b]);
      r[b] = fold_start(s.reduce_op);
    }
    for (int64_t row = 0; row < rows; ++row) {
      const auto ri = static_cast<std::size_t>(row);
      for (int64_t c = 0; c < length; c += kLaneBatch) {
        const int64_t n = length - c < kLaneBatch ? length - c : kLaneBatch;
        const float* outs[kFoldLanes];
        for (int b = 0; b < lanes; ++b) {
          const int64_t p = p0 + b;
          const float* in[3] = {nullptr, nullptr, nullptr};
          for (int k = 0; k < s.inputs; ++k) {
            const uint8_t* src = s.in[k]->partition(p) + s.in[k]->row_offsets[ri] + c * s.in[k]->element_stride;
            if (in_place_in[k]) {
              in[k] = reinterpret_cast<const float*>(src);
            } else {
              s.in[k]->load(src, s.in[k]->element_stride, n, in_buffer[k]);
              in[k] = in_buffer[k];
            }
          }
          uint8_t* dst =
              kStoresDst ? s.dst->partition(p) + s.dst->row_offsets[ri] + c * s.dst->element_stride : nullptr;
          float* out = in_place_out ? reinterpret_cast<float*>(dst) : out_buffer[b];
          if (fused_max) {
            if constexpr (kFusesMax<Body>) Body::apply_max(s, lane[b], row * length + c, n, in, out, r[b]);
          } else {
            Body::apply(s, lane[b], row * length + c, n, in, out);
            if (folds && !adds) r[b] = fold(s.reduce_op, r[b], out, n);
          }
          if (kStoresDst && !in_place_out) s.dst->store(dst, s.dst->element_stride, n, out);
          outs[b] = out;
        }
        if (adds) fold_add_lanes(r, outs, lanes, n);
      }
    }
    for (int b = 0; b < lanes; ++b) Body::end(s, m, p0 + b, r[b]);
  }
}

// Defaults for a Body: nothing per partition, no accumulator.
struct ElementwiseBody {
  static void begin(const Step&, int64_t, Lane&) {}
  static void end(const Step&, Machine&, int64_t, float) {}
};

// Body::end for instructions that feed an accumulator (S3).
struct AccumulatingEnd : ElementwiseBody {
  static void end(const Step& s, Machine& m, int64_t p, float r) { update_accumulator(s, m, p, r); }
};

}  // namespace nisa
