// iota (LANGUAGE.md 2.4, S7), two forms that share one spec entry:
// - NKI 0.6: dst[p, i0, i1, ...] = offset + p*channel_multiplier + sum_k ik*stepk
//   over pattern=[[step0, num0], ...] (affine_pattern.hpp, shared with
//   affine_select), computed in int32 arithmetic (wrapping), then converted to dst's dtype: integers
//   saturated (S2.3), floats through float32 (S2.2).
// - earlier: dst[p, i] = base + p*partition_step + i*free_step, p the tile's
//   partition, i the flat free index. Integer tiles with integer parameters:
//   exact int64 arithmetic, then saturated (S2.3); otherwise computed in double
//   and rounded once to float32 before the dst conversion (S2.2).
#include <cmath>
#include <cstring>

#include "affine_pattern.hpp"
#include "instructions.hpp"
#include "numbers.hpp"

namespace nisa {
namespace {
namespace slot = spec_operand::iota;

// The earlier form: base, partition_step, free_step as given (number), and as
// integers when all are whole and dst is an integer tile (integer).
struct Params {
  double base, partition_step, free_step;
  int64_t int_base, int_partition_step, int_free_step;
};

template <class E, bool kInteger>
void run(const Step& s, Machine&) {
  using S = typename E::storage;
  const Params& k = s.params<Params>();
  for (int64_t p = 0; p < s.partitions; ++p)
    for (int64_t r = 0; r < s.rows(); ++r) {
      uint8_t* row = s.dst->partition(p) + s.dst->row_offsets[static_cast<std::size_t>(r)];
      for (int64_t j = 0; j < s.row_length; ++j) {
        const int64_t i = r * s.row_length + j;
        S v;
        if constexpr (kInteger) {
          v = E::from_i64(k.int_base + p * k.int_partition_step + i * k.int_free_step);
        } else {
          v = E::from_f32(static_cast<float>(k.base + static_cast<double>(p) * k.partition_step +
                                             static_cast<double>(i) * k.free_step));
        }
        std::memcpy(row + j * s.dst->element_stride, &v, sizeof(S));
      }
    }
}

template <class E>
void run_pattern(const Step& s, Machine&) {
  using S = typename E::storage;
  const AffinePattern& k = s.params<AffinePattern>();
  for (int64_t p = 0; p < s.partitions; ++p)
    for (int64_t r = 0; r < s.rows(); ++r) {
      uint8_t* row = s.dst->partition(p) + s.dst->row_offsets[static_cast<std::size_t>(r)];
      for (int64_t j = 0; j < s.row_length; ++j) {
        // from_i64: saturating for integer dtypes, through float32 for float ones.
        const S v = E::from_i64(affine_value(k, p, r * s.row_length + j));
        std::memcpy(row + j * s.dst->element_stride, &v, sizeof(S));
      }
    }
}

void decode_pattern_form(const DecodeContext& c, Step& s) {
  s.set_params(decode_affine_pattern(c, slot::pattern, slot::offset, slot::channel_multiplier));
  s.run = dispatch_dtype(s.dst->dtype, [&](auto e) -> Kernel { return &run_pattern<decltype(e)>; });
}

void decode(const DecodeContext& c, Step& s) {
  stream_tiles(c, s, c.tile(slot::dst), {});
  if (c.present(slot::pattern)) return decode_pattern_form(c, s);
  Params k{};
  k.base = c.present(slot::base) ? c.number(slot::base) : 0;
  k.partition_step = c.present(slot::partition_step) ? c.number(slot::partition_step) : 0;
  k.free_step = c.present(slot::free_step) ? c.number(slot::free_step) : 1;
  auto whole = [](double x) { return std::floor(x) == x && std::fabs(x) < 0x1p53; };
  const bool integer = dtype_is_int(s.dst->dtype) && whole(k.base) && whole(k.partition_step) && whole(k.free_step);
  k.int_base = integer ? static_cast<int64_t>(k.base) : 0;
  k.int_partition_step = integer ? static_cast<int64_t>(k.partition_step) : 0;
  k.int_free_step = integer ? static_cast<int64_t>(k.free_step) : 0;
  s.set_params(k);
  s.run = dispatch_dtype(s.dst->dtype, [&](auto e) -> Kernel {
    return integer ? &run<decltype(e), true> : &run<decltype(e), false>;
  });
}

}  // namespace

const InstructionSemantics iota_semantics{decode};

}  // namespace nisa
