#include "tile_access.hpp"

#include <algorithm>
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
  // Both operand forms as offset + [step, num] pairs over the flattened
  // tensor (LANGUAGE.md 2.3). SBUF/PSUM: flat = partition * E + free element
  // (E elements per partition); the first pair is the partition dimension.
  const AffineView a = affine_view(program, view);
  uint8_t* base = tensor_base(m, program, view.tensor);
  t.origin = decl.memory == Memory::hbm ? base : decl.memory == Memory::sbuf ? m.sbuf.data() : m.psum.data();
  t.partitions = a.dims.empty() ? 1 : a.dims[0].num;
  if (decl.memory == Memory::hbm) {
    t.base = base + a.offset * t.element_size;
    t.partition_stride = a.dims.empty() ? 0 : a.dims[0].step * t.element_size;
  } else {
    const int64_t per_partition = element_count(decl.shape) / decl.shape[0];
    t.first_partition = a.offset / per_partition;
    t.partition_stride = partition_stride(m, decl.memory);
    t.base = base + t.first_partition * t.partition_stride + (a.offset % per_partition) * t.element_size;
  }
  t.elements = view_elements_per_partition(view);

  // Collapse the free dimensions, innermost first: drop unit dimensions and
  // merge a dimension into its inner neighbour when they form one run.
  std::vector<int64_t>& counts = t.counts;  // innermost first while building, then reversed
  std::vector<int64_t>& strides = t.strides;
  counts.reserve(a.dims.size());
  strides.reserve(a.dims.size());
  for (std::size_t d = a.dims.size(); d-- > 1;) {
    const int64_t count = a.dims[d].num;
    const int64_t stride = a.dims[d].step * t.element_size;
    if (count == 1) continue;
    if (!counts.empty() && stride == counts.back() * strides.back()) {
      counts.back() *= count;
      continue;
    }
    counts.push_back(count);
    strides.push_back(stride);
  }
  std::reverse(counts.begin(), counts.end());
  std::reverse(strides.begin(), strides.end());
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
// Byte range [lo, hi) of a partition's elements relative to its first
// element: access patterns may step backwards (negative strides).
struct Span {
  int64_t lo = 0, hi = 0;
};
Span free_span(const TileAccess& t) {
  Span s{0, t.element_size};
  for (std::size_t d = 0; d < t.counts.size(); ++d) {
    const int64_t reach = (t.counts[d] - 1) * t.strides[d];
    (reach < 0 ? s.lo : s.hi) += reach;
  }
  return s;
}
// The whole tile's byte range relative to `origin`, partitions included.
Span byte_span(const TileAccess& t) {
  Span s = free_span(t);
  const int64_t rel = t.base - t.origin, reach = (t.partitions - 1) * t.partition_stride;
  (reach < 0 ? s.lo : s.hi) += reach;
  return Span{rel + s.lo, rel + s.hi};
}
bool intersect(int64_t lo_a, int64_t hi_a, int64_t lo_b, int64_t hi_b) { return lo_a < hi_b && lo_b < hi_a; }
}  // namespace

bool tiles_overlap(const TileAccess& a, const TileAccess& b) {
  if (a.origin != b.origin) return false;  // different memories or HBM tensors
  if (a.memory == Memory::hbm || a.partition_stride != b.partition_stride || a.partition_stride == 0) {
    const Span sa = byte_span(a), sb = byte_span(b);
    return intersect(sa.lo, sa.hi, sb.lo, sb.hi);
  }
  // SBUF/PSUM: a tile is a block of partitions x bytes within each partition.
  const int64_t rel_a = a.base - a.origin, rel_b = b.base - b.origin;
  const int64_t stride = a.partition_stride;
  const int64_t pa = rel_a / stride, ca = rel_a % stride, pb = rel_b / stride, cb = rel_b % stride;
  const Span fa = free_span(a), fb = free_span(b);
  return intersect(pa, pa + a.partitions, pb, pb + b.partitions) &&
         intersect(ca + fa.lo, ca + fa.hi, cb + fb.lo, cb + fb.hi);
}

bool same_layout(const TileAccess& a, const TileAccess& b) {
  return a.base == b.base && a.element_size == b.element_size && a.elements == b.elements &&
         (a.partitions == 1 || a.partition_stride == b.partition_stride) && a.counts == b.counts &&
         a.strides == b.strides;
}

}  // namespace nisa
