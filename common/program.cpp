#include "program.hpp"

#include <algorithm>
#include <bit>

namespace nisa {

std::string_view role_name(Role r) {
  switch (r) {
    case Role::none: return "";
    case Role::input: return "input";
    case Role::output: return "output";
    case Role::inout: return "inout";
    case Role::scratch: return "scratch";
  }
  return "?";
}

std::size_t first_bad_string_byte(std::string_view text) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == '"' || c == 0x7F || (c < 0x20 && c != '\t')) return i;
  }
  return std::string_view::npos;
}

int64_t element_count(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

int64_t tensor_bytes_per_partition(const TensorDecl& t) {
  int64_t n = 1;
  for (std::size_t i = 1; i < t.shape.size(); ++i) n *= t.shape[i];
  return n * static_cast<int64_t>(dtype_size(t.dtype));
}

TensorView whole_view(const Program& p, int32_t tensor) {
  TensorView v;
  v.tensor = tensor;
  v.dims.reserve(p.tensors[static_cast<std::size_t>(tensor)].shape.size());
  for (int64_t d : p.tensors[static_cast<std::size_t>(tensor)].shape) v.dims.push_back(DimSlice{0, d, 1});
  return v;
}

bool is_whole(const Program& p, const TensorView& v) {
  if (v.is_pattern) return false;  // kept as written, for a canonical round trip
  const auto& shape = p.tensors[static_cast<std::size_t>(v.tensor)].shape;
  if (shape.size() != v.dims.size()) return false;
  for (std::size_t i = 0; i < shape.size(); ++i)
    if (!(v.dims[i] == DimSlice{0, shape[i], 1})) return false;
  return true;
}

AffineView affine_view(const Program& p, const TensorView& v) {
  AffineView a;
  if (v.is_pattern) {
    a.offset = v.offset;
    a.dims = v.pattern;
    // nki-aps: a vector_offset replaces the first dimension's step by the
    // runtime rows; the static view has every partition start at the offset.
    if (v.indirect == IndirectKind::vector && !a.dims.empty()) a.dims[0].step = 0;
    return a;
  }
  const TensorDecl& t = p.tensors[static_cast<std::size_t>(v.tensor)];
  int64_t stride = 1;
  a.dims.resize(v.dims.size());
  for (std::size_t d = v.dims.size(); d-- > 0;) {
    a.offset += v.dims[d].start * stride;
    a.dims[d] = PatternDim{v.dims[d].step * stride, v.dims[d].count};
    stride *= t.shape[d];
  }
  return a;
}

int64_t indirect_unit(const Program& p, const TensorView& v) {
  if (v.index_stride > 0) return v.index_stride;
  const std::vector<int64_t>& shape = p.tensors[static_cast<std::size_t>(v.tensor)].shape;
  int64_t unit = 1;
  for (std::size_t d = static_cast<std::size_t>(std::max(v.indirect_dim, 0)) + 1; d < shape.size(); ++d) unit *= shape[d];
  return unit;
}

Engine executing_engine(const InstructionSpec& is, const Instruction& ins) {
  if (is.engine_operand < 0 || static_cast<std::size_t>(is.engine_operand) >= ins.operands.size()) return is.engine;
  const Operand& o = ins.operands[static_cast<std::size_t>(is.engine_operand)];
  if (o.state != OperandState::enumerated || o.integer < 0 || static_cast<std::size_t>(o.integer) >= is.engine_of_value.size()) return is.engine;
  const int e = is.engine_of_value[static_cast<std::size_t>(o.integer)];
  return e < 0 ? is.engine : static_cast<Engine>(e);
}

int64_t view_partitions(const TensorView& v) {
  if (v.is_pattern) return v.pattern.empty() ? 0 : v.pattern[0].num;
  return v.dims.empty() ? 0 : v.dims[0].count;
}

int64_t view_partition_start(const Program& p, const TensorView& v) {
  if (!v.is_pattern) return v.dims.empty() ? 0 : v.dims[0].start;
  const TensorDecl& t = p.tensors[static_cast<std::size_t>(v.tensor)];
  if (t.memory == Memory::hbm) return 0;
  const int64_t per_partition = element_count(t.shape) / (t.shape.empty() || t.shape[0] == 0 ? 1 : t.shape[0]);
  return per_partition == 0 ? 0 : v.offset / per_partition;
}

std::vector<int64_t> view_counts(const TensorView& v) {
  std::vector<int64_t> counts;
  if (v.is_pattern) {
    for (const PatternDim& d : v.pattern) counts.push_back(d.num);
  } else {
    for (const DimSlice& d : v.dims) counts.push_back(d.count);
  }
  return counts;
}

int64_t view_elements_per_partition(const TensorView& v) {
  int64_t n = 1;
  if (v.is_pattern) {
    for (std::size_t i = 1; i < v.pattern.size(); ++i) n *= v.pattern[i].num;
    return n;
  }
  for (std::size_t i = 1; i < v.dims.size(); ++i) n *= v.dims[i].count;
  return n;
}

std::vector<int32_t> transpose_axes(std::size_t rank) {
  switch (rank) {
    case 2: return {1, 0};
    case 3: return {2, 1, 0};
    case 4: return {3, 1, 2, 0};
    default: return {};
  }
}

bool scalar_is_integer(const std::vector<TensorDecl>& tensors, const InstructionSpec& is, const std::vector<Operand>& operands, int i) {
  const OperandSpec& os = is.operands[static_cast<std::size_t>(i)];
  auto at = [&](int k) -> const Operand* { return k >= 0 && static_cast<std::size_t>(k) < operands.size() ? &operands[static_cast<std::size_t>(k)] : nullptr; };
  if (const Operand* r = at(os.integer_if_bitvec); r && r->state == OperandState::enumerated && r->integer >= 0 && r->integer < 64 &&
                                                   ((os.bitvec_mask >> r->integer) & 1u))
    return true;
  const Operand* r = at(os.integer_if_dtype_of);
  if (r == nullptr || r->state != OperandState::tensor || r->view.tensor < 0 || static_cast<std::size_t>(r->view.tensor) >= tensors.size())
    return false;
  return dtype_is_int(tensors[static_cast<std::size_t>(r->view.tensor)].dtype);
}

bool operand_is_default(const OperandSpec& os, const Operand& op) {
  if (!os.default_value) return op.state == OperandState::absent;
  const DefaultValue& dv = *os.default_value;
  switch (op.state) {
    case OperandState::enumerated: return op.integer == dv.enum_index;
    case OperandState::boolean: return (op.integer != 0) == dv.boolean;
    case OperandState::integer: return static_cast<double>(op.integer) == dv.number;
    case OperandState::scalar:
      return std::bit_cast<uint32_t>(op.scalar) == std::bit_cast<uint32_t>(static_cast<float>(dv.number));
    default: return false;
  }
}

PositionRange core_positions(const Program& p, int core, std::size_t positions) {
  if (p.core_starts.empty()) return {0, positions};
  const auto k = static_cast<std::size_t>(core);
  const std::size_t end = k + 1 < p.core_starts.size() ? p.core_starts[k + 1] : positions;
  return {static_cast<std::size_t>(p.core_starts[k]), end};
}

}  // namespace nisa

namespace nisa {

bool tensor_indirect_slot(int64_t i, int64_t group, int64_t partitions, int64_t k, int64_t& partition, int64_t& element) {
  if (i < 0 || group < 1 || k < 1) return false;
  const int64_t j = i / group;
  partition = group * (j / k) + i % group;
  element = j % k;
  return partition < partitions;
}

}  // namespace nisa
