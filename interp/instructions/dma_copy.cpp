// dma_copy dst, src (LANGUAGE.md 2.4): bits copied exactly when dst and src
// share a dtype (S2.1), else each element converted to float32 and then to
// dst's dtype, as tensor_copy (NKI 0.6's dma_copy docstring: "first casting
// from src.dtype to float32, then from float32 to dst.dtype"; MX dtypes never
// differ, checked when assembling). HBM views may be strided on every
// dimension. An HBM operand may be a dynamic access pattern (NKI 0.6 nki-aps
// "Dynamic Access", dma_copy's indirect addressing): vector_offset gathers
// (src) or scatters (dst) one row per partition, scalar_offset moves the whole
// view; the runtime index is bounded here against the tensor, and oob_mode
// decides what an index outside it does (docs/SEMANTICS.md, dma_copy).
#include <span>
#include <utility>
#include <vector>

#include "bit_copy.hpp"
#include "indirect_access.hpp"
#include "instructions.hpp"
#include "lane_loop.hpp"

namespace nisa {
namespace {
namespace slot = spec_operand::dma_copy;

void run(const Step& s, Machine&) { copy_tile_bits(*s.dst, *s.in[0], s.partitions, s.rows(), s.row_length); }

// Another dtype: element by element through float32 (the tiles' load and store, S2.2, S2.3).
struct ConvertBody : ElementwiseBody {
  static void apply(const Step&, const Lane&, int64_t, int64_t n, const float* const* in, float* out) {
    for (int64_t i = 0; i < n; ++i) out[i] = in[0][i];
  }
};

struct Params {
  const IndirectSide* dst;  // nullptr: a static side
  const IndirectSide* src;
  bool skip;                // oob_mode=skip
  float* row;               // row_length floats, a row on its way to another dtype; nullptr: same dtype, bits
};

// One partition's rows converted through float32, a row read before it is written.
void convert_partition(const TileAccess& dst, uint8_t* to, const TileAccess& src, const uint8_t* from, int64_t rows,
                       int64_t row_length, float* row) {
  for (int64_t r = 0; r < rows; ++r) {
    const auto ri = static_cast<std::size_t>(r);
    src.load(from + src.row_offsets[ri], src.element_stride, row_length, row);
    dst.store(to + dst.row_offsets[ri], dst.element_stride, row_length, row);
  }
}

// Where partition p's row goes to and comes from (byte shifts of the static
// views), or, when an index takes a side outside its tensor, that side
// (`outside`, with its index): the row does not move.
struct PartitionMove {
  int64_t dst_shift = 0, src_shift = 0;
  const IndirectSide* outside = nullptr;
  int64_t index = 0;
};

PartitionMove partition_move(const Params& k, int64_t p) {
  PartitionMove m;
  if (!shift_of(k.dst, p, m.dst_shift, m.index)) m.outside = k.dst;
  else if (!shift_of(k.src, p, m.src_shift, m.index)) m.outside = k.src;
  return m;
}

// A scalar index moves the whole view: one outside skips all of it.
bool per_partition(const Params& k) { return (k.dst && k.dst->vector) || (k.src && k.src->vector); }

void run_indirect(const Step& s, Machine&) {
  const Params& k = s.params<Params>();
  for (int64_t p = 0; p < s.partitions; ++p) {
    const PartitionMove m = partition_move(k, p);
    if (m.outside) {
      if (!k.skip) out_of_bounds(*m.outside, p, m.index);
      if (!per_partition(k)) return;
      continue;
    }
    uint8_t* to = s.dst->partition(p) + m.dst_shift;
    const uint8_t* from = s.in[0]->partition(p) + m.src_shift;
    if (k.row)
      convert_partition(*s.dst, to, *s.in[0], from, s.rows(), s.row_length, k.row);
    else
      copy_partition_bits(*s.dst, to, *s.in[0], from, s.rows(), s.row_length);
  }
}

// --strict's HBM race check (S16.5): the rows run_indirect moves, from the
// indices as they are before the step runs. The one case where that differs
// from the run: a gather whose SBUF dst overlaps its own index tile at a
// higher partition, so that writing partition p changes a later
// partition's index; the check then sees the indices the step started with.
bool tile_uses(const Step& s, std::vector<TileUse>& out) {
  if (s.run != run_indirect) return false;  // static views: dst and in[0] as they are
  const Params& k = s.params<Params>();
  TileUse from{s.in[0], false, 1, false, std::vector<int64_t>(static_cast<std::size_t>(s.partitions), TileUse::kUntouched)};
  TileUse to{s.dst, true, 1, false, std::vector<int64_t>(static_cast<std::size_t>(s.partitions), TileUse::kUntouched)};
  for (int64_t p = 0; p < s.partitions; ++p) {
    const PartitionMove m = partition_move(k, p);
    if (m.outside) {
      if (!k.skip || !per_partition(k)) break;  // the run faults here, or moves nothing
      continue;
    }
    from.shift[static_cast<std::size_t>(p)] = m.src_shift;
    to.shift[static_cast<std::size_t>(p)] = m.dst_shift;
  }
  out.push_back(std::move(from));
  out.push_back(std::move(to));
  return true;
}

void decode(const DecodeContext& c, Step& s) {
  const TensorView& dst = c.operand(slot::dst).view;
  const TensorView& src = c.operand(slot::src).view;
  const bool same_dtype = c.tile(slot::dst)->dtype == c.tile(slot::src)->dtype;
  if (dst.indirect == IndirectKind::none && src.indirect == IndirectKind::none) {
    s.run = same_dtype ? run : run_lanes<ConvertBody>;
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
  float* row = same_dtype ? nullptr
                         : reinterpret_cast<float*>(c.tiles.buffer(sizeof(float) * static_cast<std::size_t>(s.row_length)));
  s.set_params(Params{indirect_side(c, dst), indirect_side(c, src),
                      c.enum_value<spec_enum::oob_mode>(slot::oob_mode) == spec_enum::oob_mode::skip, row});
  s.run = run_indirect;
}

}  // namespace

const InstructionSemantics dma_copy_semantics{decode, {.tile_uses = tile_uses}};

}  // namespace nisa
