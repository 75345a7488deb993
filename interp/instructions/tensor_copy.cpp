// tensor_copy dst, src, engine (Vector, Scalar or GpSimd as engine= selects;
// NKI 0.6 docstring; S8.1). Every engine copies the same way in this model:
// bits exactly when dst and src share a dtype, else each element converted
// to float32 and then to dst's dtype (S2.1-S2.3: NKI's "intermediate FP32
// cast"). The engine only decides where the copy runs (--profile, S6) and
// which memories it may touch (checked when the program is assembled).
#include "bit_copy.hpp"
#include "instructions.hpp"
#include "lane_loop.hpp"
#include "tensor_indirection.hpp"

namespace nisa {
namespace {
namespace slot = spec_operand::tensor_copy;

struct ConvertBody : ElementwiseBody {
  static void apply(const Step&, const Lane&, int64_t, int64_t n, const float* const* in, float* out) {
    for (int64_t i = 0; i < n; ++i) out[i] = in[0][i];
  }
};

void copy_bits(const Step& s, Machine&) { copy_tile_bits(*s.dst, *s.in[0], s.partitions, s.rows(), s.row_length); }

// An .indirect() dst or src (Tensor Indirection, S1.7) goes through the
// staging of every such instruction (tensor_indirection.hpp): src's columns
// gathered, copied as above, dst's scattered.
void decode(const DecodeContext& c, Step& s) {
  const TileAccess* dst = streamed_tile(c, slot::dst);
  const TileAccess* src = streamed_tile(c, slot::src);
  stream_tiles(c, s, dst, {src});
  s.run = dst->dtype == src->dtype ? copy_bits : run_lanes<ConvertBody>;
  finish_tensor_indirection(c, s, slot::dst, {slot::src});
}

}  // namespace

const InstructionSemantics tensor_copy_semantics{decode};

}  // namespace nisa
