#include "indirect_access.hpp"

#include <cstring>
#include <new>
#include <string>

#include "error.hpp"

namespace nisa {

int64_t index_at(const TileAccess& t, int64_t partition, int64_t element) {
  const uint8_t* at = t.partition(partition) + t.row_offsets[static_cast<std::size_t>(element)];
  switch (t.dtype) {
    case Dtype::i8: return *reinterpret_cast<const int8_t*>(at);
    case Dtype::u8: return *at;
    case Dtype::i16: { int16_t v; std::memcpy(&v, at, 2); return v; }
    case Dtype::u16: { uint16_t v; std::memcpy(&v, at, 2); return v; }
    case Dtype::i32: { int32_t v; std::memcpy(&v, at, 4); return v; }
    case Dtype::u32: { uint32_t v; std::memcpy(&v, at, 4); return v; }
    default: return 0;  // check_instruction: integer index dtypes only
  }
}

bool shift_of(const IndirectSide* side, int64_t p, int64_t& bytes, int64_t& index) {
  bytes = 0;
  if (!side) return true;
  index = side->reg >= 0 ? read_register(*side->machine, side->reg, side->reg_site) : index_at(*side->index, side->vector ? p : 0, 0);
  // Bounded before multiplying: a u32 index times a large unit would overflow.
  if (index < side->first_index || index > side->last_index) return false;
  bytes = index * side->unit * side->element_size;  // inside the tensor: no overflow
  return true;
}

void IndexSite::fault(int64_t index, const std::string& rest) const {
  throw RuntimeFault(program->file + ":" + std::to_string(line) + ": error: " + instruction + ": index " + std::to_string(index) + rest);
}

IndexSite index_site(const DecodeContext& c, const TensorView& v) {
  return IndexSite{&c.program, c.instruction_spec.name.c_str(), v.tensor, c.instruction.line};
}

void out_of_bounds(const IndirectSide& side, int64_t p, int64_t index) {
  side.site.fault(index, (side.vector ? " (partition " + std::to_string(p) + ")" : std::string()) + " takes the view outside '" +
                             side.site.tensor_name() + "' (" + std::to_string(side.total) + " elements); oob_mode=skip skips such transfers");
}

const IndirectSide* indirect_side(const DecodeContext& c, const TensorView& v) {
  if (v.indirect == IndirectKind::none) return nullptr;
  const TensorDecl& t = c.program.tensors[static_cast<std::size_t>(v.tensor)];
  IndirectSide side;
  if (v.index_register >= 0) {
    side.reg = v.index_register;
    side.machine = &c.machine;
    side.reg_site = c.register_site();
  } else {
    side.index = c.tiles.with_rows(c.tiles.view(v.index[0]), 1);
  }
  side.vector = v.indirect == IndirectKind::vector;
  side.unit = indirect_unit(c.program, v);  // index_stride, or the declared stride of indirect_dim
  const AffineView a = affine_view(c.program, v);  // a vector's first step is already 0
  side.low = side.high = a.offset;
  for (const PatternDim& d : a.dims) (d.step < 0 ? side.low : side.high) += d.step * (d.num - 1);
  side.total = element_count(t.shape);
  // check_indirect bounds the static view (index 0): 0 <= low <= high < total.
  side.first_index = -(side.low / side.unit);
  side.last_index = (side.total - 1 - side.high) / side.unit;
  side.element_size = static_cast<int64_t>(dtype_size(t.dtype));
  side.site = index_site(c, v);
  uint8_t* at = c.tiles.buffer(sizeof(IndirectSide));
  return new (at) IndirectSide(side);  // trivially destructible: the table's buffer owns it
}

}  // namespace nisa
