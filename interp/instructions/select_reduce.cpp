// select_reduce dst, predicate, on_true, on_false, reduce_res, reduce_cmd,
// reduce_op, reverse_pred (Vector; S4.3):
// result = where(predicate != 0 (reversed: == 0), on_true, on_false[p]),
// written to dst; its maximum feeds the Vector accumulator (S3). The step's
// parameters are declared in select_reduce.hpp, which its AVX-512 kernel
// (simd/select_reduce_avx512.cpp) reads too.
#include <bit>

#include "instructions.hpp"
#include "lane_loop.hpp"
#include "predicated_select.hpp"
#include "select_reduce.hpp"
#include "select_reduce_avx512.hpp"

namespace nisa {
namespace {
namespace slot = spec_operand::select_reduce;
using namespace select_reduce;

struct Body : AccumulatingEnd {
  static void begin(const Step&, int64_t, Lane&) {}
  static void apply(const Step& s, const Lane& lane, int64_t, int64_t n, const float* const* in, float* out) {
    const float* pred = in[0];
    const float* on_true = in[1];
    const float on_false = lane.scalar[kOnFalse];
    // Both values are read before the choice so the loop compiles to a blend.
    if (s.params<Params>().reverse_pred) {
      for (int64_t i = 0; i < n; ++i) {
        const float t = on_true[i];
        out[i] = pred[i] == 0.0f ? t : on_false;
      }
    } else {
      for (int64_t i = 0; i < n; ++i) {
        const float t = on_true[i];
        out[i] = pred[i] == 0.0f ? on_false : t;
      }
    }
  }
};

// The common layout in one pass per row with no conversions: float32
// on_true and dst, a 1-byte predicate, all contiguous. The selection is of
// bits (on_true's float32 bits are its value; on_false is float32), then the
// row's maximum folds from dst (still in cache).
template <class Pred>
void run_contiguous(const Step& s, Machine& m) {
  const TileAccess& dst = *s.dst;
  const TileAccess& pred = *s.in[0];
  const TileAccess& on_true = *s.in[1];
  const bool folds = s.reduce_cmd == ReduceCmd::reset_reduce || s.reduce_cmd == ReduceCmd::reduce;
  const bool reverse = s.params<Params>().reverse_pred;
  for (int64_t p = 0; p < s.partitions; ++p) {
    const auto on_false = std::bit_cast<uint32_t>(s.scalar[kOnFalse].at(p));
    float r = fold_start(ReduceOp::maximum);
    for (int64_t row = 0; row < s.rows(); ++row) {
      const auto ri = static_cast<std::size_t>(row);
      uint8_t* out = dst.partition(p) + dst.row_offsets[ri];
      select_row<4, Pred, false, true>(out, pred.partition(p) + pred.row_offsets[ri],
                                       on_true.partition(p) + on_true.row_offsets[ri], 0, nullptr, on_false, reverse,
                                       s.row_length);
      if (folds) r = fold(ReduceOp::maximum, r, reinterpret_cast<const float*>(out), s.row_length);
    }
    update_accumulator(s, m, p, r);
  }
}

void decode(const DecodeContext& c, Step& s) {
  const TileAccess* on_true = c.tile(slot::on_true);
  stream_tiles(c, s, c.tile(slot::dst), {c.tile(slot::predicate), on_true});
  s.scalar[kOnFalse] = c.partition_scalar(slot::on_false, 0.0f);
  s.set_params(Params{c.boolean(slot::reverse_pred)});
  accumulate_into(c, s, {slot::reduce_cmd, slot::reduce_op, slot::reduce_res}, AccumulatorEngine::vector,
                  on_true->first_partition, ReduceOp::maximum);
  s.run = run_lanes<Body>;
  const TileAccess& pred = *s.in[0];
  const bool contiguous =
      reads_in_place(*s.dst) && reads_in_place(*s.in[1]) && pred.element_size == 1 && pred.unit_stride();
  if (contiguous) s.run = pred.dtype == Dtype::i8 ? run_contiguous<int8_t> : run_contiguous<uint8_t>;
  if (Kernel fused = select_reduce_avx512_kernel(s, contiguous)) s.run = fused;
}

}  // namespace

const InstructionSemantics select_reduce_semantics{decode};

}  // namespace nisa
