#include "tensor_indirection.hpp"

#include <new>
#include <string>

namespace nisa {
namespace {

[[noreturn]] void outside_row(const TensorIndirection& side, int64_t column, int64_t index) {
  side.site.fault(index, " (column " + std::to_string(column) + " of the .indirect() view) reaches outside the " +
                             std::to_string(side.row_elements) + " elements of a partition of '" + side.site.tensor_name() + "'");
}

}  // namespace

const TensorIndirection* tensor_indirection(const DecodeContext& c, const TensorView& v, Engine engine) {
  if (v.indirect != IndirectKind::tensor) return nullptr;
  const TensorDecl& t = c.program.tensors[static_cast<std::size_t>(v.tensor)];
  TensorIndirection side;
  const TileAccess* index = c.tiles.view(v.index[0]);
  side.index = c.tiles.with_rows(index, 1);
  side.index_partitions = index->partitions;
  side.index_elements = index->elements;
  side.group = tensor_indirect_group(engine);
  side.step = v.pattern[1].step;
  side.row_elements = element_count(t.shape) / t.shape[0];
  side.first_free = v.offset % side.row_elements;
  side.element_size = static_cast<int64_t>(dtype_size(t.dtype));
  side.site = index_site(c, v);
  uint8_t* at = c.tiles.buffer(sizeof(TensorIndirection));
  return new (at) TensorIndirection(side);  // trivially destructible: the table's buffer owns it
}

void column_offsets(const TensorIndirection* side, const TileAccess& t, int64_t n, std::vector<int64_t>& out) {
  out.resize(static_cast<std::size_t>(n));
  if (side == nullptr) {
    for (int64_t i = 0; i < n; ++i) out[static_cast<std::size_t>(i)] = t.row_offsets[static_cast<std::size_t>(i)];
    return;
  }
  for (int64_t i = 0; i < n; ++i) {
    int64_t p = 0, e = 0;
    tensor_indirect_slot(i, side->group, side->index_partitions, side->index_elements, p, e);  // inside: checked at assembly
    const int64_t index = index_at(*side->index, p, e);
    // Bounded before multiplying: a u32 index times the step could overflow.
    const int64_t limit = side->row_elements;
    if (index < -limit || index > limit) outside_row(*side, i, index);
    const int64_t at = side->first_free + index * side->step;
    if (at < 0 || at >= limit) outside_row(*side, i, index);
    out[static_cast<std::size_t>(i)] = index * side->step * side->element_size;
  }
}

}  // namespace nisa
