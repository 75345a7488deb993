// What nc_matmul and nc_matmul_mx share (S8.3): float32 matrices in and out of
// tiles, the summation order, and accumulate=None's "did an earlier matmul
// write this PSUM" flag.
#pragma once
#include <cstdint>

#include "decode_context.hpp"
#include "tile_access.hpp"

namespace nisa {

// The tile's elements as float32, partition-major: out[p * elements + j].
void load_matrix(const TileAccess& t, float* out);
void store_matrix(const TileAccess& t, const float* in);

// result[mi * n + j] += stationary[r * m + mi] * moving[r * n + j] for r = 0,
// 1, ... rows - 1 in that order, each product rounded to float32 and then
// added (no fused multiply-add). transpose: zero moving values are skipped.
void sum_products(const float* stationary, const float* moving, int64_t rows, int64_t m, int64_t n, bool transpose, float* result);

// dst = sum (accumulate: dst's float32 value + sum), converted to dst's
// dtype. `old` is scratch of dst's size.
void store_sum(const TileAccess& dst, bool accumulate, float* sum, float* old);

// Which of dst's PSUM bytes an earlier matmul wrote (then marks them all).
// accumulate=None (NKI: "first write overwrites, subsequent writes
// accumulate") accumulates when any was; --strict on NeuronCore-v2/v3 faults
// accumulating when not all were (S8.3).
struct EarlierWrites {
  bool any = false, all = true;
};
EarlierWrites earlier_matmul_writes(const DecodeContext& c, const TileAccess& dst);

// A product's float32 work space for `rows` contraction rows into dst
// [M, N], taken at decode: the stationary [rows x M] and
// moving [rows x N] matrices, the result and dst's old values [M x N]; shared
// by the program's matmul steps of the same size (TileTable::scratch).
float* matmul_scratch(const DecodeContext& c, const TileAccess& dst, int64_t rows);
struct MatmulScratch {
  float* stationary;
  float* moving;
  float* result;
  float* old;
};
MatmulScratch scratch_parts(float* scratch, const TileAccess& dst, int64_t rows);

// The step's tiles and shape: dst from the two matrices, and dst read too
// when accumulating (--strict: S1.1).
void set_matmul_tiles(Step& s, const TileAccess* dst, const TileAccess* stationary, const TileAccess* moving,
                      bool accumulate);

}  // namespace nisa
