// dma_copy dst, src (LANGUAGE.md 2.4): bits copied exactly, whatever the dtype
// (S2.1); HBM views may be strided on every dimension. An HBM operand may be a
// dynamic access pattern (NKI 0.6 nki-aps "Dynamic Access", dma_copy's
// indirect addressing): vector_offset gathers (src) or scatters (dst) one row
// per partition, scalar_offset moves the whole view; the runtime index is
// bounded here against the tensor, and oob_mode decides what an index outside
// it does (docs/SEMANTICS.md, dma_copy).
#include <cstring>
#include <new>
#include <span>
#include <string>

#include "error.hpp"

#include "../bit_copy.hpp"
#include "instructions.hpp"

namespace nisa {
namespace {
namespace slot = spec_operand::dma_copy;

void run(const Step& s, Machine&) { copy_tile_bits(*s.dst, *s.in[0], s.partitions, s.rows(), s.row_length); }

// One dynamic side of the copy, decoded once (lives in the tile table).
struct IndirectSide {
  const TileAccess* index = nullptr;  // the index view, in its own layout
  bool vector = false;                // one index per partition (else one for all)
  int64_t unit = 0;                   // elements one index step moves
  int64_t low = 0, high = 0;          // flat elements the static view reaches (index 0)
  int64_t total = 0;                  // elements of the tensor
  int64_t element_size = 0;
  const Program* program = nullptr;   // for the fault message
  int32_t tensor = -1;
  uint32_t line = 0;
};

struct Params {
  const IndirectSide* dst;  // nullptr: a static side
  const IndirectSide* src;
  bool skip;                // oob_mode=skip
};

int64_t read_index(const TileAccess& t, int64_t partition) {
  const uint8_t* at = t.partition(partition) + t.row_offsets[0];
  switch (t.dtype) {
    case Dtype::i8: return *reinterpret_cast<const int8_t*>(at);
    case Dtype::u8: return *at;
    case Dtype::i16: { int16_t v; std::memcpy(&v, at, 2); return v; }
    case Dtype::u16: { uint16_t v; std::memcpy(&v, at, 2); return v; }
    case Dtype::i32: { int32_t v; std::memcpy(&v, at, 4); return v; }
    case Dtype::u32: { uint32_t v; std::memcpy(&v, at, 4); return v; }
    default: return 0;  // check_indirect: integer index dtypes only
  }
}

// The byte shift of partition p on this side, or false when its index takes
// the view outside the tensor.
bool shift_of(const IndirectSide* side, int64_t p, int64_t& bytes, int64_t& index) {
  bytes = 0;
  if (!side) return true;
  index = read_index(*side->index, side->vector ? p : 0);
  // |index| < 2^32 and unit <= total < 2^40 (the encoding's offset field): no overflow.
  const int64_t shift = index * side->unit;
  if (side->low + shift < 0 || side->high + shift >= side->total) return false;
  bytes = shift * side->element_size;
  return true;
}

[[noreturn]] void out_of_bounds(const IndirectSide& side, int64_t p, int64_t index) {
  const TensorDecl& t = side.program->tensors[static_cast<std::size_t>(side.tensor)];
  std::string message = side.program->file + ":" + std::to_string(side.line) + ": error: dma_copy: index " + std::to_string(index);
  if (side.vector) message += " (partition " + std::to_string(p) + ")";
  message += " takes the view outside '" + t.name + "' (" + std::to_string(side.total) +
             " elements); oob_mode=skip skips such transfers";
  throw RuntimeFault(message);
}

void run_indirect(const Step& s, Machine&) {
  const Params& k = s.params<Params>();
  const bool per_partition = (k.dst && k.dst->vector) || (k.src && k.src->vector);
  for (int64_t p = 0; p < s.partitions; ++p) {
    int64_t dst_shift = 0, src_shift = 0, index = 0;
    const bool dst_ok = shift_of(k.dst, p, dst_shift, index);
    if (!dst_ok && !k.skip) out_of_bounds(*k.dst, p, index);
    const bool src_ok = shift_of(k.src, p, src_shift, index);
    if (!src_ok && !k.skip) out_of_bounds(*k.src, p, index);
    if (!dst_ok || !src_ok) {
      if (!per_partition) return;  // a scalar index moves the whole view: all of it is skipped
      continue;
    }
    copy_partition_bits(*s.dst, s.dst->partition(p) + dst_shift, *s.in[0], s.in[0]->partition(p) + src_shift, s.rows(),
                        s.row_length);
  }
}

const IndirectSide* indirect_side(const DecodeContext& c, const TensorView& v) {
  if (v.indirect == IndirectKind::none) return nullptr;
  const TensorDecl& t = c.program.tensors[static_cast<std::size_t>(v.tensor)];
  IndirectSide side;
  side.index = c.tiles.with_rows(c.tiles.view(v.index[0]), 1);
  side.vector = v.indirect == IndirectKind::vector;
  side.unit = 1;
  for (std::size_t d = static_cast<std::size_t>(v.indirect_dim) + 1; d < t.shape.size(); ++d) side.unit *= t.shape[d];
  const AffineView a = affine_view(c.program, v);  // a vector's first step is already 0
  side.low = side.high = a.offset;
  for (const PatternDim& d : a.dims) (d.step < 0 ? side.low : side.high) += d.step * (d.num - 1);
  side.total = element_count(t.shape);
  side.element_size = static_cast<int64_t>(dtype_size(t.dtype));
  side.program = &c.program;
  side.tensor = v.tensor;
  side.line = c.instruction.line;
  uint8_t* at = c.tiles.buffer(sizeof(IndirectSide));
  return new (at) IndirectSide(side);  // trivially destructible: the table's buffer owns it
}

void decode(const DecodeContext& c, Step& s) {
  const TensorView& dst = c.operand(slot::dst).view;
  const TensorView& src = c.operand(slot::src).view;
  if (dst.indirect == IndirectKind::none && src.indirect == IndirectKind::none) {
    s.run = run;
    stream_tiles(c, s, c.tile(slot::dst), {c.tile(slot::src)});
    return;
  }
  // Dynamic: rows of one common length, no staging (a partition is copied at
  // a time, in partition order; a scatter's repeated row keeps the last one).
  const TileAccess* d = c.tile(slot::dst);
  const TileAccess* from = c.tile(slot::src);
  const TileAccess* both[2] = {d, from};
  s.row_length = common_row_length(std::span(both, 2));
  s.partitions = d->partitions;
  s.elements = d->elements;
  s.dst = c.tiles.with_rows(d, s.row_length);
  s.in[0] = c.tiles.with_rows(from, s.row_length);
  s.inputs = 1;
  s.set_params(Params{indirect_side(c, dst), indirect_side(c, src),
                      c.enum_value<spec_enum::oob_mode>(slot::oob_mode) == spec_enum::oob_mode::skip});
  s.run = run_indirect;
}

}  // namespace

const InstructionSemantics dma_copy_semantics{decode};

}  // namespace nisa
