// Tensor Indirection on a compute instruction's operand (NKI 0.6
// NkiTensor.indirect, NeuronCore-v4; docs/SEMANTICS.md S1.7): the view's
// column i sits index[snake(i)] pattern steps into each partition's row
// instead of i steps. Decoded once (where the index lives, the bounds); the
// offsets are read from the index when the step runs, since they are data.
#pragma once
#include <cstdint>
#include <vector>

#include "decode_context.hpp"
#include "indirect_access.hpp"

namespace nisa {

struct TensorIndirection {
  const TileAccess* index = nullptr;  // the index view, one element per row
  int64_t index_partitions = 0, index_elements = 0;
  int64_t group = 16;                 // partitions per snake group (program.hpp tensor_indirect_group)
  int64_t step = 0;                   // elements one index unit moves (the pattern's free step)
  int64_t first_free = 0;             // the view's start within its partition's row, in elements
  int64_t row_elements = 0;           // elements of a partition's row of the tensor
  int64_t element_size = 0;
  IndexSite site;                     // for the fault message
};

// nullptr unless v is an .indirect() view; else the side, living in the tile table.
const TensorIndirection* tensor_indirection(const DecodeContext& c, const TensorView& v, Engine engine);

// The byte offset of each of the n columns from the start of a partition of
// the view: the index values times the step for an indirect side (a
// RuntimeFault naming the line for an offset outside the row), else the
// static layout of `t` (one element per row, t laid out by with_rows(t, 1)).
// An indirect side's offsets are from the view's start (t.partition(p)).
void column_offsets(const TensorIndirection* side, const TileAccess& t, int64_t n, std::vector<int64_t>& out);

}  // namespace nisa
