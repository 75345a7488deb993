// Geometry of memory accesses (see memory_access.hpp).
#include "memory_access.hpp"

#include <algorithm>

namespace nisa {

std::size_t access_space(const TensorDecl& t, std::size_t tensor) {
  if (t.memory == Memory::sbuf) return 0;
  if (t.memory == Memory::psum) return 1;
  return 2 + kEngineCount + tensor;
}

std::size_t accumulator_space(Engine e) { return 2 + static_cast<std::size_t>(e); }

namespace {

// An access pattern's bounding rectangle: the partitions it covers (SBUF/PSUM)
// or the rows of dimension 0 between its first and last element (HBM; a
// pattern that spans rows takes them whole), conservative like strided slices.
Rect pattern_rect(const TensorDecl& t, const TensorView& view) {
  const int64_t size = static_cast<int64_t>(dtype_size(t.dtype));
  const bool hbm = t.memory == Memory::hbm;
  const int64_t row = t.shape.size() == 1 ? element_count(t.shape) : element_count(t.shape) / t.shape[0];
  int64_t lo = 0, hi = 0;
  for (std::size_t d = hbm ? 0 : 1; d < view.pattern.size(); ++d) {
    const int64_t reach = view.pattern[d].step * (view.pattern[d].num - 1);
    (reach < 0 ? lo : hi) += reach;
  }
  Rect r;
  if (!hbm) {
    r.p0 = view.offset / row;
    r.p1 = r.p0 + view.pattern[0].num;
    r.b0 = (view.offset % row + lo) * size + t.offset;
    r.b1 = (view.offset % row + hi + 1) * size + t.offset;
    return r;
  }
  const int64_t first = view.offset + lo, last = view.offset + hi;
  r.p0 = first / row;
  r.p1 = last / row + 1;
  r.b0 = r.p1 - r.p0 == 1 ? (first % row) * size : 0;
  r.b1 = r.p1 - r.p0 == 1 ? (last % row + 1) * size : row * size;
  return r;
}

}  // namespace

// Bounding box of a view: its partitions (HBM: its rows, dimension 0), and
// the first and last byte of its other dimensions within a partition (row),
// row-major in the declared shape. A 1-D HBM tensor is one row.
Rect view_rect(const Program& program, const TensorView& view) {
  const TensorDecl& t = program.tensors[static_cast<std::size_t>(view.tensor)];
  if (view.indirect != IndirectKind::none) {  // a runtime index may reach any row: the whole tensor
    Rect r;
    r.p1 = t.shape.size() == 1 ? 1 : t.shape[0];
    r.b1 = (t.shape.size() == 1 ? element_count(t.shape) : element_count(t.shape) / t.shape[0]) *
           static_cast<int64_t>(dtype_size(t.dtype));
    if (t.memory != Memory::hbm) {  // an .indirect() SBUF/PSUM view: the tensor's bytes in each partition
      r.b0 += t.offset;
      r.b1 += t.offset;
    }
    return r;
  }
  if (view.is_pattern) return pattern_rect(t, view);
  const bool one_row = view.dims.size() == 1;
  const std::size_t first_dim = one_row ? 0 : 1;
  int64_t stride = 1, first = 0, last = 0;
  for (std::size_t d = view.dims.size(); d-- > first_dim;) {
    const DimSlice& s = view.dims[d];
    first += s.start * stride;
    last += (s.start + (s.count - 1) * s.step) * stride;
    stride *= t.shape[d];
  }
  const int64_t size = static_cast<int64_t>(dtype_size(t.dtype));
  const int64_t offset = t.memory == Memory::hbm ? 0 : t.offset;
  Rect r;
  r.b0 = first * size + offset;
  r.b1 = (last + 1) * size + offset;
  if (one_row) {
    r.p1 = 1;
  } else {
    const DimSlice& rows = view.dims[0];
    r.p0 = rows.start;
    r.p1 = rows.start + (rows.count - 1) * rows.step + 1;
  }
  return r;
}

// Slices with positive steps name distinct elements inside the rectangle, so
// they fill it when they are as many as it has room for: consecutive
// partitions (rows), and elements x size bytes in each.
bool view_fills_rect(const Program& program, const TensorView& view, const Rect& r) {
  if (view.is_pattern || view.indirect != IndirectKind::none || view.dims.empty()) return false;
  for (const DimSlice& d : view.dims)
    if (d.step < 1 || d.count < 1) return false;
  const TensorDecl& t = program.tensors[static_cast<std::size_t>(view.tensor)];
  const bool one_row = view.dims.size() == 1;
  int64_t per_row = 1;
  for (std::size_t d = one_row ? 0 : 1; d < view.dims.size(); ++d) per_row *= view.dims[d].count;
  const int64_t rows = one_row ? 1 : view.dims[0].count;
  return rows == r.p1 - r.p0 && per_row * static_cast<int64_t>(dtype_size(t.dtype)) == r.b1 - r.b0;
}

int64_t hbm_row_bytes(const TensorDecl& t) {
  int64_t n = static_cast<int64_t>(dtype_size(t.dtype));
  for (std::size_t d = t.shape.size() == 1 ? 0 : 1; d < t.shape.size(); ++d) n *= t.shape[d];
  return n;
}

bool empty_view(const TensorView& view) {
  for (const DimSlice& s : view.dims)
    if (s.count <= 0) return true;
  return false;
}

void collect_accesses(const Program& program, const InstructionSpec& is, const Instruction& ins, Engine engine,
                     std::vector<Access>& out) {
  out.clear();
  const CostSpec& cost = is.cost;
  for (std::size_t o = 0; o < ins.operands.size(); ++o) {
    const Operand& op = ins.operands[o];
    const bool write = std::find(cost.written.begin(), cost.written.end(), static_cast<int>(o)) != cost.written.end();
    auto add = [&](const TensorView& v) {
      const TensorDecl& t = program.tensors[static_cast<std::size_t>(v.tensor)];
      const Rect rect = view_rect(program, v);
      out.push_back(Access{access_space(t, static_cast<std::size_t>(v.tensor)), rect, write,
                           write && view_fills_rect(program, v, rect)});
      for (const TensorView& index : v.index)  // a dynamic access reads its index tile
        out.push_back(Access{access_space(program.tensors[static_cast<std::size_t>(index.tensor)], static_cast<std::size_t>(index.tensor)),
                             view_rect(program, index), false, false});
    };
    if (op.state == OperandState::tensor_list) {  // dma_compute's srcs: every view is read
      for (const TensorView& v : op.views)
        if (!empty_view(v)) add(v);
      continue;
    }
    if (op.state != OperandState::tensor || empty_view(op.view)) continue;
    add(op.view);
  }
  auto lanes = [&](const TensorView& v) {
    Rect r;
    r.p0 = view_partition_start(program, v);
    r.p1 = r.p0 + view_partitions(v);
    r.b1 = 1;
    return r;
  };
  const std::size_t acc = accumulator_space(engine);
  if (cost.accumulator_command >= 0) {
    const Operand& cmd = ins.operands[static_cast<std::size_t>(cost.accumulator_command)];
    if (cmd.integer != cost.accumulator_idle)  // reset / reset_reduce / reduce change the lanes
      out.push_back(Access{acc, lanes(ins.operands[static_cast<std::size_t>(cost.size_of)].view), true, true});
  }
  if (cost.accumulator_result >= 0) {
    const Operand& res = ins.operands[static_cast<std::size_t>(cost.accumulator_result)];
    if (res.state == OperandState::tensor) out.push_back(Access{acc, lanes(res.view), false, false});
  }
}

}  // namespace nisa
