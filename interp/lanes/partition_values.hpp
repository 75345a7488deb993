// All free elements of one partition of a tile, in flat (row-major) order,
// to and from float32 (S2.1, S2.2) or bit patterns. For instructions that
// look at a whole partition before writing anything (bn_stats, max8, ...):
// the partition is read into a scratch buffer first, so dst may overlap the
// inputs (S1.6), since every operand covers the same physical partitions.
#pragma once
#include <cstdint>
#include <initializer_list>

#include "bit_alu.hpp"
#include "step.hpp"
#include "tile_table.hpp"

namespace nisa {

inline void load_partition(const TileAccess& t, int64_t p, float* out) {
  for (int64_t row = 0; row * t.row_length < t.elements; ++row)
    t.load(t.partition(p) + t.row_offsets[static_cast<std::size_t>(row)], t.element_stride, t.row_length, out + row * t.row_length);
}

inline void store_partition(const TileAccess& t, int64_t p, const float* in) {
  for (int64_t row = 0; row * t.row_length < t.elements; ++row)
    t.store(t.partition(p) + t.row_offsets[static_cast<std::size_t>(row)], t.element_stride, t.row_length, in + row * t.row_length);
}

inline void load_partition_bits(const TileAccess& t, int64_t p, uint32_t* out) {
  const LoadBits load = load_bits_for(t.dtype);
  for (int64_t row = 0; row * t.row_length < t.elements; ++row)
    load(t.partition(p) + t.row_offsets[static_cast<std::size_t>(row)], t.element_stride, t.row_length, out + row * t.row_length);
}

// The low bits of each pattern that fit the tile's dtype.
inline void store_partition_bits(const TileAccess& t, int64_t p, const uint32_t* in) {
  const StoreBits store = store_bits_for(t.dtype);
  for (int64_t row = 0; row * t.row_length < t.elements; ++row)
    store(t.partition(p) + t.row_offsets[static_cast<std::size_t>(row)], t.element_stride, t.row_length, in + row * t.row_length);
}

// A step over whole partitions (not the lane loop): dst, the inputs, and the
// first input's partitions and elements per partition; no row layout.
inline void whole_partition_step(Step& s, const TileAccess* dst, std::initializer_list<const TileAccess*> inputs) {
  s.dst = dst;
  s.inputs = 0;
  for (const TileAccess* t : inputs) s.in[s.inputs++] = t;
  s.partitions = s.in[0]->partitions;
  s.elements = s.in[0]->elements;
  s.row_length = 0;
}

// Scratch for `count` float32 or uint32 values, owned by the decoded program.
inline float* scratch_floats(TileTable& tiles, int64_t count) {
  return reinterpret_cast<float*>(tiles.buffer(static_cast<std::size_t>(count) * sizeof(float)));
}

}  // namespace nisa
