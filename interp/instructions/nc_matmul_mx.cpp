// nc_matmul_mx dst, stationary, moving, stationary_scale, moving_scale (Tensor
// Engine, NeuronCore-v4; NKI 0.6 docstring; S13.2): dst[m, n] (+)= sum over
// k, q of S[k, m, q] * M[k, n, q], where S[k, m, q] is value q of packed
// stationary[k, m] times 2^(e-127) of its group's scale byte e (group rows
// 8b..8b+7, scale at [32 * (b / 4) + b % 4, m], mx_values.hpp), rounded to
// float32, and the same for moving. The sum is nc_matmul's (S8.3) over the 4K
// rows in the order (k, q) = (0, 0), (0, 1), ..., products rounded to float32,
// no fused multiply-add; accumulate as nc_matmul's.
#include "matmul_psum.hpp"
#include "mx_values.hpp"
#include "instructions.hpp"

namespace nisa {
namespace {
namespace slot = spec_operand::nc_matmul_mx;

struct Params {
  bool accumulate;
  const TileAccess* stationary_scale;
  const TileAccess* moving_scale;
  float* scratch;  // matmul_scratch, 4K contraction rows
};

// The dequantized [4K, F] float32 matrix of a packed [K, F] tile: row 4k + q
// holds value q of partition k.
void dequantize(const TileAccess& data, const TileAccess& scale, float* out) {
  const int64_t f = data.elements;
  for (int64_t k = 0; k < data.partitions; ++k) {
    const int64_t scale_partition = mx_scale_partition(k / 8);
    for (int64_t i = 0; i < f; ++i) {
      const uint8_t e = *element_address(scale, scale_partition, i);
      const uint8_t* element = element_address(data, k, i);
      for (int q = 0; q < 4; ++q) out[(4 * k + q) * f + i] = mx_scaled(mx_packed_value(data.dtype, element, q), e);
    }
  }
}

void run(const Step& s, Machine&) {
  const Params& k = s.params<Params>();
  const TileAccess& dst = *s.dst;
  const TileAccess& stationary_tile = *s.in[0];
  const TileAccess& moving_tile = *s.in[1];
  const int64_t rows = 4 * stationary_tile.partitions, m = dst.partitions, n = dst.elements;
  const MatmulScratch w = scratch_parts(k.scratch, dst, rows);
  dequantize(stationary_tile, *k.stationary_scale, w.stationary);
  dequantize(moving_tile, *k.moving_scale, w.moving);
  for (int64_t i = 0; i < m * n; ++i) w.result[i] = 0.0f;
  sum_products(w.stationary, w.moving, rows, m, n, false, w.result);
  store_sum(dst, k.accumulate, w.result, w.old);
}

void decode(const DecodeContext& c, Step& s) {
  const TileAccess* dst = c.tile(slot::dst);
  const TileAccess* stationary = c.tile(slot::stationary);
  const TileAccess* moving = c.tile(slot::moving);
  const bool written = earlier_matmul_writes(c, *dst).any;
  Params k{};
  k.accumulate = c.present(slot::accumulate) ? c.boolean(slot::accumulate) : written;
  k.stationary_scale = c.tile(slot::stationary_scale);
  k.moving_scale = c.tile(slot::moving_scale);
  k.scratch = matmul_scratch(c, *dst, 4 * stationary->partitions);
  s.set_params(k);
  set_matmul_tiles(s, dst, stationary, moving, k.accumulate);  // --strict does not check the scales
  s.run = run;
}

}  // namespace

const InstructionSemantics nc_matmul_mx_semantics{decode};

}  // namespace nisa
