// affine_select dst, pattern, channel_multiplier, on_true_tile,
// on_false_value, cmp_op, offset (GpSimd; S4.21, NKI 0.6 docstring):
// dst[p, i] = cmp_op(a(p, i), 0) ? on_true_tile[p, i] : on_false_value, with
// a the int32 affine value of iota's pattern form (affine_pattern.hpp),
// compared as an integer. A selected element keeps its bits when on_true_tile
// has dst's dtype, else goes through float32 (S2.2, S2.3); on_false_value is
// a float32 converted to dst's dtype once.
#include <new>

#include "affine_pattern.hpp"
#include "bit_alu.hpp"
#include "lanes.hpp"
#include "instructions.hpp"

namespace nisa {
namespace {
namespace slot = spec_operand::affine_select;

struct Params {
  const AffinePattern* pattern;  // TileTable memory (the pattern alone fills a Step's parameter room)
  CompareOp cmp_op;
  bool through_f32;    // on_true_tile's dtype differs from dst's
  uint32_t on_false;   // on_false_value as dst bits
};

inline bool holds(CompareOp op, int32_t a) {
  switch (op) {
    case CompareOp::equal: return a == 0;
    case CompareOp::not_equal: return a != 0;
    case CompareOp::less: return a < 0;
    case CompareOp::less_equal: return a <= 0;
    case CompareOp::greater: return a > 0;
    case CompareOp::greater_equal: return a >= 0;
  }
  return false;
}

// Batches of kLaneBatch elements: on_true_tile's batch is read before dst's
// is written, so dst may be on_true_tile (S1.6; stream_tiles stages dst when
// their layouts differ).
void run(const Step& s, Machine&) {
  const Params& k = s.params<Params>();
  const TileAccess& on_true = *s.in[0];
  const TileAccess& dst = *s.dst;
  const LoadBits load_bits = load_bits_for(on_true.dtype);
  const StoreBits store_bits = store_bits_for(dst.dtype);
  uint32_t bits[kLaneBatch];
  float values[kLaneBatch];
  for (int64_t p = 0; p < s.partitions; ++p)
    for (int64_t row = 0; row < s.rows(); ++row) {
      const auto ri = static_cast<std::size_t>(row);
      for (int64_t c = 0; c < s.row_length; c += kLaneBatch) {
        const int64_t n = s.row_length - c < kLaneBatch ? s.row_length - c : kLaneBatch;
        const uint8_t* src = on_true.partition(p) + on_true.row_offsets[ri] + c * on_true.element_stride;
        if (k.through_f32) {
          on_true.load(src, on_true.element_stride, n, values);
          for (int64_t i = 0; i < n; ++i) bits[i] = bits_from_f32(dst.dtype, values[i]);
        } else {
          load_bits(src, on_true.element_stride, n, bits);
        }
        const int64_t first = row * s.row_length + c;
        for (int64_t i = 0; i < n; ++i)
          if (!holds(k.cmp_op, affine_value(*k.pattern, p, first + i))) bits[i] = k.on_false;
        store_bits(dst.partition(p) + dst.row_offsets[ri] + c * dst.element_stride, dst.element_stride, n, bits);
      }
    }
}

void decode(const DecodeContext& c, Step& s) {
  const TileAccess* on_true = c.tile(slot::on_true_tile);
  stream_tiles(c, s, c.tile(slot::dst), {on_true});
  const auto* pattern = new (c.tiles.buffer(sizeof(AffinePattern)))
      AffinePattern(decode_affine_pattern(c, slot::pattern, slot::offset, slot::channel_multiplier));
  s.set_params(Params{pattern, c.enum_value<CompareOp>(slot::cmp_op), on_true->dtype != s.dst->dtype,
                      bits_from_f32(s.dst->dtype, c.scalar(slot::on_false_value))});
  s.run = run;
}

}  // namespace

const InstructionSemantics affine_select_semantics{decode};

}  // namespace nisa
