#include "tile_access.hpp"

#include <numeric>

namespace nisa {

TileAccess resolve_tile(Machine& m, const Program& program, const TensorView& view) {
  const TensorDecl& decl = program.tensors[static_cast<std::size_t>(view.tensor)];
  TileAccess t;
  t.memory = decl.memory;
  t.dtype = decl.dtype;
  t.element_size = static_cast<int64_t>(dtype_size(decl.dtype));
  t.load = load_lanes_for(decl.dtype);
  t.store = store_lanes_for(decl.dtype);
  // Byte stride of each declared dimension: row-major within a partition
  // (SBUF/PSUM) or within the whole tensor (HBM).
  const std::size_t rank = decl.shape.size();
  std::vector<int64_t> dim_stride(rank, t.element_size);
  for (std::size_t d = rank; d-- > 1;) dim_stride[d - 1] = dim_stride[d] * decl.shape[d];
  if (decl.memory != Memory::hbm) dim_stride[0] = partition_stride(m, decl.memory);

  uint8_t* base = tensor_base(m, program, view.tensor);
  t.origin = decl.memory == Memory::hbm ? base : decl.memory == Memory::sbuf ? m.sbuf.data() : m.psum.data();
  for (std::size_t d = 0; d < rank; ++d) base += view.dims[d].start * dim_stride[d];
  t.base = base;
  t.partitions = view.dims.empty() ? 1 : view.dims[0].count;
  t.partition_stride = rank == 0 ? 0 : dim_stride[0] * view.dims[0].step;
  t.first_partition = decl.memory == Memory::hbm ? 0 : view_partition_start(view);
  t.elements = view_elements_per_partition(view);

  // Collapse the free dimensions, innermost first: drop unit dimensions and
  // merge a dimension into its inner neighbour when they form one run.
  std::vector<int64_t> counts, strides;  // innermost first while building
  for (std::size_t d = rank; d-- > 1;) {
    const int64_t count = view.dims[d].count;
    const int64_t stride = dim_stride[d] * view.dims[d].step;
    if (count == 1) continue;
    if (!counts.empty() && stride == counts.back() * strides.back()) {
      counts.back() *= count;
      continue;
    }
    counts.push_back(count);
    strides.push_back(stride);
  }
  t.counts.assign(counts.rbegin(), counts.rend());
  t.strides.assign(strides.rbegin(), strides.rend());
  lay_out_rows(t, innermost_run(t));
  return t;
}

TileAccess contiguous_tile(uint8_t* base, Dtype dtype, int64_t partitions, int64_t elements) {
  TileAccess t;
  t.base = base;
  t.origin = base;
  t.dtype = dtype;
  t.element_size = static_cast<int64_t>(dtype_size(dtype));
  t.load = load_lanes_for(dtype);
  t.store = store_lanes_for(dtype);
  t.partitions = partitions;
  t.partition_stride = elements * t.element_size;
  t.elements = elements;
  if (elements > 1) {
    t.counts = {elements};
    t.strides = {t.element_size};
  }
  lay_out_rows(t, innermost_run(t));
  return t;
}

int64_t innermost_run(const TileAccess& t) { return t.counts.empty() ? 1 : t.counts.back(); }

int64_t common_row_length(std::span<const TileAccess* const> tiles) {
  int64_t g = 0;
  for (const TileAccess* t : tiles) g = std::gcd(g, innermost_run(*t));
  return g == 0 ? 1 : g;
}

void lay_out_rows(TileAccess& t, int64_t row_length) {
  t.row_length = row_length;
  t.element_stride = t.strides.empty() ? t.element_size : t.strides.back();
  const int64_t rows = t.elements / row_length;
  t.row_offsets.assign(static_cast<std::size_t>(rows), 0);
  for (int64_t r = 0; r < rows; ++r) {
    int64_t flat = r * row_length, offset = 0;
    for (std::size_t d = t.counts.size(); d-- > 0;) {
      offset += (flat % t.counts[d]) * t.strides[d];
      flat /= t.counts[d];
    }
    t.row_offsets[static_cast<std::size_t>(r)] = offset;
  }
}

namespace {
// Bytes from a partition's first element to past its last.
int64_t free_span(const TileAccess& t) {
  int64_t span = t.element_size;
  for (std::size_t d = 0; d < t.counts.size(); ++d) span += (t.counts[d] - 1) * t.strides[d];
  return span;
}
bool intersect(int64_t lo_a, int64_t hi_a, int64_t lo_b, int64_t hi_b) { return lo_a < hi_b && lo_b < hi_a; }
}  // namespace

bool tiles_overlap(const TileAccess& a, const TileAccess& b) {
  if (a.origin != b.origin) return false;  // different memories or HBM tensors
  const int64_t rel_a = a.base - a.origin, rel_b = b.base - b.origin;
  if (a.memory == Memory::hbm || a.partition_stride != b.partition_stride || a.partition_stride == 0)
    return intersect(rel_a, rel_a + (a.partitions - 1) * a.partition_stride + free_span(a), rel_b,
                     rel_b + (b.partitions - 1) * b.partition_stride + free_span(b));
  // SBUF/PSUM: a tile is a block of partitions x bytes within each partition.
  const int64_t stride = a.partition_stride;
  const int64_t pa = rel_a / stride, ca = rel_a % stride, pb = rel_b / stride, cb = rel_b % stride;
  return intersect(pa, pa + a.partitions, pb, pb + b.partitions) &&
         intersect(ca, ca + free_span(a), cb, cb + free_span(b));
}

bool same_layout(const TileAccess& a, const TileAccess& b) {
  return a.base == b.base && a.element_size == b.element_size && a.elements == b.elements &&
         (a.partitions == 1 || a.partition_stride == b.partition_stride) && a.counts == b.counts &&
         a.strides == b.strides;
}

}  // namespace nisa
