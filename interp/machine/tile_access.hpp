// A tensor operand resolved once, before execution (wasm3 style): base pointer,
// partition stride, and the free dimensions collapsed into rows of a common
// length with a precomputed byte offset per row. Hot loops walk
// partitions x rows x elements with no index arithmetic beyond strides.
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "lanes.hpp"
#include "machine.hpp"
#include "program.hpp"

namespace nisa {

struct TileAccess {
  uint8_t* base = nullptr;        // element 0 of the first partition (row) of the view
  uint8_t* origin = nullptr;      // byte 0 of partition 0 of the memory the tile lives in
  Memory memory = Memory::sbuf;
  Dtype dtype = Dtype::f32;
  int64_t element_size = 4;
  LoadLanes load = nullptr;       // float32 view of the elements (S2.1)
  StoreLanes store = nullptr;
  int64_t partitions = 0;         // SBUF/PSUM: partition count; HBM: dimension 0
  int64_t partition_stride = 0;   // bytes between consecutive partitions (rows of dim 0)
  int64_t first_partition = 0;    // physical partition (accumulator lane) of partition 0
  int64_t elements = 0;           // free elements per partition
  std::vector<int64_t> counts;    // collapsed free dimensions, outermost first
  std::vector<int64_t> strides;   // their byte strides
  // Filled by lay_out_rows: the free elements as rows of row_length elements.
  int64_t row_length = 0;
  int64_t element_stride = 0;     // bytes between elements within a row
  std::vector<int64_t> row_offsets;  // byte offset of each row within a partition

  bool unit_stride() const { return element_stride == element_size; }
  uint8_t* partition(int64_t p) const { return base + p * partition_stride; }
};

TileAccess resolve_tile(Machine& m, const Program& program, const TensorView& view);

// A contiguous tile in caller-owned memory (staging for overlapping operands).
TileAccess contiguous_tile(uint8_t* base, Dtype dtype, int64_t partitions, int64_t elements);

// Length of the last collapsed dimension (the longest run with one stride).
int64_t innermost_run(const TileAccess& t);

// The largest row length every tile can use (gcd of their innermost runs).
int64_t common_row_length(std::span<const TileAccess* const> tiles);

void lay_out_rows(TileAccess& t, int64_t row_length);

// Byte ranges of two tiles intersect (S1.6 hazard check).
bool tiles_overlap(const TileAccess& a, const TileAccess& b);
// Element k of partition p is at the same address in both, with the same size:
// an elementwise in-place update is safe.
bool same_layout(const TileAccess& a, const TileAccess& b);

}  // namespace nisa

namespace nisa {

// Address of flat free element i of partition p of t (in t's row layout):
// for instructions that move elements between positions (gathers, transposes).
inline uint8_t* element_address(const TileAccess& t, int64_t p, int64_t i) {
  return t.partition(p) + t.row_offsets[static_cast<std::size_t>(i / t.row_length)] + (i % t.row_length) * t.element_stride;
}

}  // namespace nisa
