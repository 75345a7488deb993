// Bit-exact copies between tiles laid out in rows of the same length
// (dma_copy, S2.1; and the copy into/out of a staged dst, S1.6).
#pragma once
#include <cstdint>

#include "tile_access.hpp"

namespace nisa {

// dst and src have the same element size, partitions and row layout length.
void copy_tile_bits(const TileAccess& dst, const TileAccess& src, int64_t partitions, int64_t rows, int64_t row_length);

// One partition's rows: from `from` (laid out as src) to `to` (laid out as dst).
void copy_partition_bits(const TileAccess& dst, uint8_t* to, const TileAccess& src, const uint8_t* from, int64_t rows, int64_t row_length);

}  // namespace nisa
