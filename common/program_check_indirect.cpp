// Tensor Indirection (NKI 0.6 NkiTensor.indirect; the "Tensor indirection"
// paragraphs of nki.isa tensor_copy, tensor_tensor, tensor_scalar, ...): the
// view on its own, then the rules between an instruction's dst and the input
// that may be indirect. docs/SEMANTICS.md S1.7.
#include <algorithm>

#include "instruction_checker.hpp"

namespace nisa::check_detail {
namespace {

// An engine as NKI's docstrings name it ("the Vector or GpSimd engine").
std::string_view engine_title(Engine e) {
  static constexpr std::string_view titles[] = {"Tensor", "Vector", "Scalar", "GpSimd", "DMA"};
  return titles[static_cast<int>(e)];
}

}  // namespace

bool InstructionChecker::check_tensor_indirect_view(int i, const TensorView& v) {
  const TensorDecl& t = program.tensors[static_cast<std::size_t>(v.tensor)];
  if (!is.operands[static_cast<std::size_t>(i)].tensor_indirect) {
    fail(i, quoted(key(i)) + ": an indirect=IDX view (NKI .indirect()) is not accepted by " + is.name + "'s " + key(i));
    return false;
  }
  if (t.memory == Memory::hbm) {
    fail(i, quoted(key(i)) + ": indirect=IDX indexes an SBUF or PSUM tile; '" + t.name + "' is in hbm");
    return false;
  }
  if (v.pattern.size() != 2 || v.index_stride != 0 || v.indirect_dim != 1) {
    fail(i, quoted(key(i)) + ": indirect=IDX takes a two-dimensional pattern [[partition step, P], [step, N]], got " +
                std::to_string(v.pattern.size()) + " dimensions");
    return false;
  }
  if (v.index.size() != 1) {
    fail(i, quoted(key(i)) + ": indirect=IDX without its index tensor");
    return false;
  }
  const TensorView& index = v.index[0];
  if (index.indirect != IndirectKind::none) {
    fail(i, quoted(key(i)) + ": the index of indirect=IDX is itself indirect");
    return false;
  }
  if (!check_view(i, index)) return false;
  const TensorDecl& it = program.tensors[static_cast<std::size_t>(index.tensor)];
  if (it.memory != Memory::sbuf || !dtype_is_int(it.dtype)) {
    fail(i, quoted(key(i)) + ": the index of indirect=IDX must be an integer SBUF tensor; '" + it.name + "' is " +
                std::string(dtype_name(it.dtype)) + " in " + std::string(memory_name(it.memory)));
    return false;
  }
  // NKI: index is (P, K) with P the view's partitions; column i reads the
  // index element at snake position i (program.hpp tensor_indirect_slot).
  const int64_t parts = view_partitions(index), k = view_elements_per_partition(index);
  if (parts != v.pattern[0].num) {
    fail(i, quoted(key(i)) + ": the index of indirect=IDX must cover the view's " + std::to_string(v.pattern[0].num) + " partitions, got " +
                shape_text(index));
    return false;
  }
  const int64_t group = tensor_indirect_group(executing_engine(is, ins));
  for (int64_t column = 0; column < v.pattern[1].num; ++column) {
    int64_t p = 0, e = 0;
    if (!tensor_indirect_slot(column, group, parts, k, p, e)) {
      fail(i, quoted(key(i)) + ": column " + std::to_string(column) + " of the view reads index partition " + std::to_string(p) + ", outside the index " +
                  shape_text(index) + " (groups of " + std::to_string(group) + " partitions)");
      return false;
    }
  }
  return true;
}

void InstructionChecker::check_tensor_indirection(const CheckSpec& c) {
  const TensorView& dst = operand(c.a).view;
  const TensorView& src = operand(c.b).view;
  const bool scatter = dst.indirect == IndirectKind::tensor, gather = src.indirect == IndirectKind::tensor;
  if (!scatter && !gather) return;
  const int at = scatter ? c.a : c.b;
  if (arch_version() < 4) return fail(at, is.name + ": .indirect() views (indirect=IDX) need NeuronCore-v4 (trn3) or later");
  // Each instruction's docstring names its engines ("must run on the Vector or
  // GpSimd engine", "Runs on the Vector engine"): the check's "engines".
  const Engine engine = executing_engine(is, ins);
  if (std::find(c.values.begin(), c.values.end(), static_cast<int>(engine)) == c.values.end()) {
    std::string allowed;
    for (std::size_t k = 0; k < c.values.size(); ++k)
      allowed += std::string(k == 0 ? "" : k + 1 == c.values.size() ? " or " : ", ") + std::string(engine_title(static_cast<Engine>(c.values[k])));
    return fail(is.engine_operand >= 0 ? is.engine_operand : at,
                is.name + " with an .indirect() view runs on the " + allowed + " engine, not " + std::string(engine_name(engine)));
  }
  auto start = [&](const TensorView& v) { return view_partition_start(program, v); };
  // NKI 0.6: "the index of every .indirect() view starts on a quadrant boundary".
  for (int o : {c.a, c.b}) {
    const TensorView& v = operand(o).view;
    if (v.indirect == IndirectKind::tensor && start(v.index[0]) % 32 != 0)
      fail(o, quoted(key(o)) + ": its index starts on partition " + std::to_string(start(v.index[0])) + "; it must start on a quadrant boundary (a multiple of 32)");
  }
  const std::string in = quoted(key(c.b));
  if (gather && start(src) != start(src.index[0]))
    fail(c.b, in + " starts on partition " + std::to_string(start(src)) + " and its index on " + std::to_string(start(src.index[0])) +
                  "; an .indirect() input starts on the same partition as its index");
  const Memory src_memory = tensor_of(c.b).memory;
  if (scatter && src_memory == Memory::sbuf && start(dst.index[0]) != start(src))
    fail(c.a, "the index of " + quoted(key(c.a)) + " starts on partition " + std::to_string(start(dst.index[0])) + " and " + in + " (SBUF) on " +
                  std::to_string(start(src)) + "; they must be the same");
  if (scatter && src_memory == Memory::psum && gather && start(dst.index[0]) != start(src.index[0]))
    fail(c.a, "the index of " + quoted(key(c.a)) + " starts on partition " + std::to_string(start(dst.index[0])) + " and that of " + in + " on " +
                  std::to_string(start(src.index[0])) + "; with " + in + " in PSUM they must be the same");
  if (scatter && engine == Engine::scalar && tensor_of(c.a).memory == Memory::psum)
    fail(c.a, quoted(key(c.a)) + ": the Scalar engine cannot scatter (.indirect()) into PSUM");
}

}  // namespace nisa::check_detail
