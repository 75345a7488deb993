// check_instruction: everything the spec says about one instruction, so that
// a program passing it runs without bounds checks (program_check.hpp). First
// each operand alone (kind, value range, view inside its tensor, memory,
// dtype, S1.5 alignment), then, only if all of those hold, the spec's
// cross-operand checks.
#include <algorithm>
#include <bit>
#include <cstdlib>
#include <cmath>
#include <cstdio>
#include <algorithm>
#include <limits>

#include "program_check.hpp"

namespace nisa {

namespace {

std::string quoted(const std::string& key) {
  std::string s(1, '\'');
  s += key;
  s += '\'';
  return s;
}

std::string float_text(float v) {
  if (v == std::numeric_limits<float>::lowest()) return "fp32.min";
  if (v == std::numeric_limits<float>::max()) return "fp32.max";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(v));
  return buf;
}

std::string join_memories(const std::vector<Memory>& ms) {
  std::string out;
  for (Memory m : ms) out += (out.empty() ? "" : ", ") + std::string(memory_name(m));
  return out;
}

std::string dtype_list(const Spec& spec, uint32_t mask) {
  std::string out;
  for (const auto& d : spec.dtypes)
    if ((mask >> static_cast<int>(d.dtype)) & 1u) out += (out.empty() ? "" : ", ") + d.name;
  return out;
}

std::string enum_value_name(const Spec& spec, const OperandSpec& op, int64_t index) {
  const auto& values = spec.enums[static_cast<std::size_t>(op.enum_id)].values;
  return index >= 0 && static_cast<std::size_t>(index) < values.size() ? values[static_cast<std::size_t>(index)].name : std::to_string(index);
}

std::string state_name(OperandState s) {
  switch (s) {
    case OperandState::absent: return "nothing";
    case OperandState::tensor: return "a tensor";
    case OperandState::scalar: return "a scalar";
    case OperandState::integer: return "an integer";
    case OperandState::enumerated: return "an enum value";
    case OperandState::boolean: return "a bool";
    case OperandState::list: return "a list";
    case OperandState::tensor_list: return "a list of tensors";
  }
  return "?";
}

std::string shape_text(const TensorView& v) {
  return std::to_string(view_partitions(v)) + " partitions x " + std::to_string(view_elements_per_partition(v)) + " elements";
}

std::string slice_text(const DimSlice& d) {
  std::string s = std::to_string(d.start);
  s += ':';
  s += std::to_string(d.start + (d.count - 1) * d.step + 1);
  if (d.step != 1) {
    s += ':';
    s += std::to_string(d.step);
  }
  return s;
}

struct InstructionChecker {
  const Spec& spec;
  const Program& program;
  const Instruction& ins;
  const InstructionSpec& is;
  std::vector<CheckFailure> failures;

  void fail(int operand, std::string message) { failures.push_back({operand, std::move(message)}); }
  const Operand& operand(int i) const { return ins.operands[static_cast<std::size_t>(i)]; }
  const std::string& key(int i) const { return is.operands[static_cast<std::size_t>(i)].name; }
  bool is_tensor(int i) const { return i >= 0 && operand(i).state == OperandState::tensor; }  // -1: a check without that operand
  const TensorDecl& tensor_of(int i) const { return program.tensors[static_cast<std::size_t>(operand(i).view.tensor)]; }

  void check_arch() {
    const ArchSpec& arch = spec.archs[static_cast<std::size_t>(program.arch)];
    if (arch.version >= is.first_arch_version) return;
    std::string core = "NeuronCore-v" + std::to_string(is.first_arch_version);
    for (const auto& a : spec.archs)
      if (a.version == is.first_arch_version) core = a.neuroncore;
    // S1.2: name the instruction, the arch it needs and the .arch line that allows it.
    fail(-1, is.name + " needs " + core + ": add '.arch " + is.first_arch + "'");
  }

  // The view lies inside its tensor (so no element access needs a bound check).
  bool check_view(int i) { return check_view(i, operand(i).view); }

  // Operand i's view, or the index view of its dynamic access pattern.
  bool check_view(int i, const TensorView& v) {
    if (v.tensor < 0 || static_cast<std::size_t>(v.tensor) >= program.tensors.size()) {
      fail(i, quoted(key(i)) + " names tensor number " + std::to_string(v.tensor) + " of " + std::to_string(program.tensors.size()));
      return false;
    }
    const TensorDecl& t = program.tensors[static_cast<std::size_t>(v.tensor)];
    if (v.is_pattern) return check_pattern(i, v);
    if (v.dims.size() != t.shape.size()) {
      fail(i, quoted(key(i)) + ": tensor '" + t.name + "' has " + std::to_string(t.shape.size()) + " dimensions, the view " + std::to_string(v.dims.size()));
      return false;
    }
    bool ok = true;
    for (std::size_t k = 0; k < v.dims.size(); ++k) {
      const DimSlice& d = v.dims[k];
      const int64_t size = t.shape[k];
      auto where = [&] { return quoted(key(i)) + ": dimension " + std::to_string(k) + " of '" + t.name + "'"; };  // for messages only
      if (d.step < 1) {
        fail(i, where() + " has step " + std::to_string(d.step) + "; steps must be positive");
        ok = false;
      } else if (d.count < 1) {
        fail(i, where() + " selects " + std::to_string(d.count) + " elements; a slice must not be empty");
        ok = false;
      } else if (d.start < 0 || d.start >= size || (d.count - 1) > (size - 1 - d.start) / d.step) {
        fail(i, where() + ": slice " + slice_text(d) + " is out of range (size " + std::to_string(size) + ")");
        ok = false;
      } else if (k == 0 && t.memory != Memory::hbm && d.step != 1) {
        fail(i, where() + " is the partition dimension and cannot take a step (" + std::to_string(d.step) + ")");
        ok = false;
      }
    }
    return ok;
  }

  // An access pattern (LANGUAGE.md 2.3) lies inside its tensor: every element
  // flat[K + sum i_k * step_k] exists, and for SBUF/PSUM each partition's
  // elements stay within that partition. The spec loader keeps the encoding's
  // step, num and dimension widths within 62 bits together, so once each entry
  // fits its field no sum here overflows int64.
  bool check_pattern(int i, const TensorView& v) {
    const TensorDecl& t = program.tensors[static_cast<std::size_t>(v.tensor)];
    const PatternEncoding& pe = spec.pattern_encoding;
    if (v.indirect != IndirectKind::none && !check_indirect(i, v)) return false;
    auto where = [&] { return quoted(key(i)) + ": access pattern of '" + t.name + "'"; };  // for messages only
    if (v.pattern.empty() || v.pattern.size() > (std::size_t{1} << pe.dims_bits)) {
      fail(i, where() + " has " + std::to_string(v.pattern.size()) + " dimensions; 1 to " +
                  std::to_string(std::size_t{1} << pe.dims_bits) + " are allowed");
      return false;
    }
    const int64_t total = element_count(t.shape);
    const int64_t per_partition = t.memory == Memory::hbm ? total : total / t.shape[0];
    const int64_t step_limit = int64_t{1} << (pe.step_bits - 1);
    int64_t low = 0, high = 0;  // free span relative to the first element
    for (std::size_t k = 0; k < v.pattern.size(); ++k) {
      const PatternDim& d = v.pattern[k];
      if (d.num < 1 || d.num >= (int64_t{1} << pe.num_bits)) {
        fail(i, where() + ": dimension " + std::to_string(k) + " has " + std::to_string(d.num) + " elements; 1 to " +
                    std::to_string((int64_t{1} << pe.num_bits) - 1) + " are allowed");
        return false;
      }
      if (d.step <= -step_limit || d.step >= step_limit) {
        fail(i, where() + ": step " + std::to_string(d.step) + " is too large");
        return false;
      }
      if (k == 0 && t.memory != Memory::hbm) continue;  // the partition dimension, checked below
      if (k == 0 && v.indirect == IndirectKind::vector) continue;  // replaced by the runtime rows (nki-aps)
      const int64_t reach = d.step * (d.num - 1);
      (reach < 0 ? low : high) += reach;
    }
    if (v.offset < 0 || v.offset >= total) {
      fail(i, where() + ": offset " + std::to_string(v.offset) + " is outside the tensor's " + std::to_string(total) + " elements");
      return false;
    }
    if (t.memory == Memory::hbm) {
      if (v.offset + low < 0 || v.offset + high >= total) {
        fail(i, where() + " reaches element " + std::to_string(v.offset + low < 0 ? v.offset + low : v.offset + high) +
                    ", outside the tensor's " + std::to_string(total) + " elements");
        return false;
      }
      return true;
    }
    // SBUF/PSUM: partitions are contiguous (the first step is the elements per
    // partition), the free elements of each stay inside it.
    const PatternDim& pd = v.pattern[0];
    if (pd.num > 1 && pd.step != per_partition) {
      fail(i, where() + ": the partition step must be " + std::to_string(per_partition) +
                  " (the elements per partition), got " + std::to_string(pd.step));
      return false;
    }
    const int64_t first = v.offset / per_partition, within = v.offset % per_partition;
    if (first + pd.num > t.shape[0]) {
      fail(i, where() + " covers partitions " + std::to_string(first) + ".." + std::to_string(first + pd.num - 1) + " of " +
                  std::to_string(t.shape[0]));
      return false;
    }
    if (within + low < 0 || within + high >= per_partition) {
      fail(i, where() + " reaches element " + std::to_string(within + low < 0 ? within + low : within + high) +
                  " of a partition of " + std::to_string(per_partition) + " elements");
      return false;
    }
    return true;
  }

  // NKI 0.6 dynamic access (nki-aps "Dynamic Access"; dma_copy's indirect
  // addressing): only where the spec allows it, on an HBM tensor, indexed by
  // an integer SBUF view: vector_offset one index per partition of the view on
  // indirect_dim 0, scalar_offset a single index on any dimension. The static
  // part of the view is bounded here with index 0; the index itself can only
  // be bounded at run time (oob_mode).
  bool check_indirect(int i, const TensorView& v) {
    const TensorDecl& t = program.tensors[static_cast<std::size_t>(v.tensor)];
    const bool vector = v.indirect == IndirectKind::vector;
    const std::string form = vector ? "vector_offset" : "scalar_offset";
    if (!is.operands[static_cast<std::size_t>(i)].indirect) {
      fail(i, quoted(key(i)) + ": " + form + " is accepted only by dma_copy's src and dst (NKI 0.6 indirect DMA)");
      return false;
    }
    if (t.memory != Memory::hbm) {
      fail(i, quoted(key(i)) + ": " + form + " indexes an HBM tensor; '" + t.name + "' is in " + std::string(memory_name(t.memory)));
      return false;
    }
    if (v.index.size() != 1) {
      fail(i, quoted(key(i)) + ": " + form + " without its index tensor");
      return false;
    }
    const TensorView& index = v.index[0];
    if (index.indirect != IndirectKind::none) {
      fail(i, quoted(key(i)) + ": the index of " + form + " is itself indirect");
      return false;
    }
    if (!check_view(i, index)) return false;
    const TensorDecl& it = program.tensors[static_cast<std::size_t>(index.tensor)];
    if (it.memory != Memory::sbuf || !dtype_is_int(it.dtype)) {
      fail(i, quoted(key(i)) + ": the index of " + form + " must be an integer SBUF tensor; '" + it.name + "' is " +
                  std::string(dtype_name(it.dtype)) + " in " + std::string(memory_name(it.memory)));
      return false;
    }
    const int64_t index_partitions = view_partitions(index), index_elements = view_elements_per_partition(index);
    if (vector) {
      if (v.indirect_dim != 0) {
        fail(i, quoted(key(i)) + ": vector_offset works on indirect_dim 0 only (NKI 0.6), got " + std::to_string(v.indirect_dim));
        return false;
      }
      if (index_elements != 1 || v.pattern.empty() || index_partitions != v.pattern[0].num) {
        fail(i, quoted(key(i)) + ": the vector_offset index must be [" + std::to_string(v.pattern.empty() ? 0 : v.pattern[0].num) +
                    ", 1] (one row per partition of the view), got " + shape_text(index));
        return false;
      }
    } else {
      if (index_elements * index_partitions != 1) {
        fail(i, quoted(key(i)) + ": the scalar_offset index must be one element, got " + shape_text(index));
        return false;
      }
      if (v.indirect_dim < 0 || static_cast<std::size_t>(v.indirect_dim) >= t.shape.size()) {
        fail(i, quoted(key(i)) + ": indirect_dim " + std::to_string(v.indirect_dim) + " is not a dimension of '" + t.name + "' (" +
                    std::to_string(t.shape.size()) + " dimensions)");
        return false;
      }
    }
    return true;
  }

  // An operand the instruction writes never names one element twice (a step of
  // 0, or overlapping strides): the result would depend on the order of the
  // writes. Sufficient test: with the dimensions sorted by |step|, each step
  // exceeds the reach of the ones inside it.
  void check_distinct_elements(int i) {
    const TensorView& v = operand(i).view;
    if (!v.is_pattern) return;  // slices always have distinct elements
    const bool hbm = tensor_of(i).memory == Memory::hbm;
    std::vector<PatternDim> dims;
    // A vector_offset's first dimension is the runtime rows: a scatter writes
    // them in partition order (docs/SEMANTICS.md, dma_copy).
    const std::size_t first = hbm && v.indirect != IndirectKind::vector ? 0 : 1;
    for (std::size_t k = first; k < v.pattern.size(); ++k)
      if (v.pattern[k].num > 1) dims.push_back(v.pattern[k]);
    std::sort(dims.begin(), dims.end(), [](const PatternDim& a, const PatternDim& b) { return std::abs(a.step) < std::abs(b.step); });
    int64_t reach = 0;
    for (const PatternDim& d : dims) {
      if (std::abs(d.step) <= reach) {
        fail(i, quoted(key(i)) + " is written but its access pattern names some elements more than once (step " + std::to_string(d.step) + ")");
        return;
      }
      reach += std::abs(d.step) * (d.num - 1);
    }
  }

  // S1.5: >64 partitions start at 0; 33..64 at 0 or 64; 1..32 at a multiple of 32.
  void check_alignment(int i) {
    if (!spec.engine(executing_engine(is, ins)).partition_alignment || tensor_of(i).memory == Memory::hbm) return;
    int64_t n = view_partitions(operand(i).view), start = view_partition_start(program, operand(i).view);
    int64_t unit = n > 64 ? 128 : n > 32 ? 64 : 32;
    if (start % unit == 0) return;
    std::string allowed = n > 64 ? "0" : n > 32 ? "0 or 64" : "0, 32, 64 or 96";
    fail(i, quoted(key(i)) + " spans " + std::to_string(n) + " partitions starting at " + std::to_string(start) + "; " + is.name +
                " needs a start of " + allowed + " (S1.5 partition alignment)");
  }

  void check_tensor_operand(int i) {
    if (!check_view(i)) return;
    if (std::find(is.cost.written.begin(), is.cost.written.end(), i) != is.cost.written.end()) check_distinct_elements(i);
    if (check_memory_and_dtype(i, tensor_of(i))) check_alignment(i);
  }

  bool check_memory_and_dtype(int i, const TensorDecl& t) {
    const OperandSpec& os = is.operands[static_cast<std::size_t>(i)];
    if (!os.allows_memory(t.memory)) {
      fail(i, quoted(key(i)) + " is '" + t.name + "' in " + std::string(memory_name(t.memory)) + "; " + is.name + " allows " + join_memories(os.memories) + " here");
      return false;
    }
    if (!os.allows_dtype(t.dtype)) {
      fail(i, quoted(key(i)) + " is '" + t.name + "' of dtype " + std::string(dtype_name(t.dtype)) + "; allowed: " + dtype_list(spec, os.dtype_mask));
      return false;
    }
    return true;
  }

  // A tensor_list (dma_compute's srcs, only read; the DMA has no partition
  // alignment rule): the count, then every view like a tensor operand's.
  void check_tensor_list_operand(int i) {
    const OperandSpec& os = is.operands[static_cast<std::size_t>(i)];
    const auto count = static_cast<int64_t>(operand(i).views.size());
    if (count < os.list_min_count || count > os.list_max_count)
      return fail(i, quoted(key(i)) + " holds " + std::to_string(count) + " tensors; " + is.name + " takes " + std::to_string(os.list_min_count) +
                         " to " + std::to_string(os.list_max_count));
    for (const TensorView& v : operand(i).views)
      if (check_view(i, v)) check_memory_and_dtype(i, program.tensors[static_cast<std::size_t>(v.tensor)]);
  }

  // Scalars stored as exact int32 (integer_if_dtype_of / integer_if_bitvec).
  bool scalar_is_integer(int i) const { return nisa::scalar_is_integer(program.tensors, is, ins.operands, i); }

  void check_scalar_operand(int i) {
    const OperandSpec& os = is.operands[static_cast<std::size_t>(i)];
    const Operand& o = operand(i);
    if (scalar_is_integer(i)) {
      if (o.state != OperandState::integer) {
        const Operand* r = os.integer_if_bitvec >= 0 ? &operand(os.integer_if_bitvec) : nullptr;
        const bool by_op = r != nullptr && r->state == OperandState::enumerated && r->integer >= 0 && r->integer < 64 &&
                           ((os.bitvec_mask >> r->integer) & 1u);
        fail(i, quoted(key(i)) + " must be an exact integer because " +
                    (by_op ? "'" + key(os.integer_if_bitvec) + "' is a bitvec operator" : "'" + key(os.integer_if_dtype_of) + "' has an integer dtype"));
      } else if (o.integer < std::numeric_limits<int32_t>::min() || o.integer > std::numeric_limits<int32_t>::max()) {
        fail(i, quoted(key(i)) + " = " + std::to_string(o.integer) + " is out of the int32 range");
      }
      return;
    }
    if (o.state != OperandState::scalar) {
      fail(i, quoted(key(i)) + " must be a float scalar, got " + state_name(o.state));
      return;
    }
    if (os.only_scalar && std::bit_cast<uint32_t>(o.scalar) != std::bit_cast<uint32_t>(*os.only_scalar))
      fail(i, quoted(key(i)) + " must be " + float_text(*os.only_scalar) + ", got " + float_text(o.scalar));
  }

  void check_operand(int i) {
    const OperandSpec& os = is.operands[static_cast<std::size_t>(i)];
    const Operand& o = operand(i);
    if (o.state == OperandState::absent) {
      if (!os.optional_without_default()) fail(i, quoted(key(i)) + " is missing");
      return;
    }
    auto got = [&] { return state_name(o.state); };  // for messages only
    switch (os.kind) {
      case OperandKind::tensor:
        if (o.state != OperandState::tensor) return fail(i, quoted(key(i)) + " must be a tensor, got " + got());
        return check_tensor_operand(i);
      case OperandKind::tensor_or_scalar:
        if (o.state == OperandState::tensor) return check_tensor_operand(i);
        if (o.state != OperandState::scalar && o.state != OperandState::integer) return fail(i, quoted(key(i)) + " must be a tensor or a scalar, got " + got());
        return check_scalar_operand(i);
      case OperandKind::scalar:
        if (o.state != OperandState::scalar && o.state != OperandState::integer) return fail(i, quoted(key(i)) + " must be a scalar, got " + got());
        return check_scalar_operand(i);
      case OperandKind::enumeration: {
        if (o.state != OperandState::enumerated) return fail(i, quoted(key(i)) + " must be an enum value, got " + got());
        const auto& es = spec.enums[static_cast<std::size_t>(os.enum_id)];
        if (o.integer < 0 || static_cast<std::size_t>(o.integer) >= es.values.size())
          return fail(i, quoted(key(i)) + " enum index " + std::to_string(o.integer) + " is out of range for " + es.name);
        if (!os.allows_enum_value(static_cast<int>(o.integer))) {
          std::string allowed;
          for (std::size_t v = 0; v < es.values.size(); ++v)
            if (os.allows_enum_value(static_cast<int>(v))) allowed += (allowed.empty() ? "" : ", ") + es.values[v].name;
          fail(i, quoted(key(i)) + " = " + es.values[static_cast<std::size_t>(o.integer)].name + " is not allowed for " + is.name + "; allowed: " + allowed);
        }
        return;
      }
      case OperandKind::boolean:
        if (o.state != OperandState::boolean) return fail(i, quoted(key(i)) + " must be true or false, got " + got());
        if (o.integer != 0 && o.integer != 1) fail(i, quoted(key(i)) + " bool value " + std::to_string(o.integer) + " is not 0 or 1");
        return;
      case OperandKind::integer:
        if (o.state != OperandState::integer) return fail(i, quoted(key(i)) + " must be an integer, got " + got());
        if (o.integer < os.int_min || o.integer > os.int_max)
          fail(i, quoted(key(i)) + " = " + std::to_string(o.integer) + " is out of range [" + std::to_string(os.int_min) + ", " + std::to_string(os.int_max) + "]");
        return;
      case OperandKind::list:
        if (o.state != OperandState::list) return fail(i, quoted(key(i)) + " must be a list, got " + got());
        return check_list_operand(i);
      case OperandKind::tensor_list:
        if (o.state != OperandState::tensor_list) return fail(i, quoted(key(i)) + " must be a list of tensors, got " + got());
        return check_tensor_list_operand(i);
    }
  }

  // Entry count and the range of every item (spec list_items).
  void check_list_operand(int i) {
    const OperandSpec& os = is.operands[static_cast<std::size_t>(i)];
    const std::vector<int32_t>& list = operand(i).list;
    const std::size_t size = os.list_items.size();
    if (size == 0 || list.size() % size != 0)
      return fail(i, quoted(key(i)) + " holds " + std::to_string(list.size()) + " integers, not whole entries of " + std::to_string(size));
    const auto count = static_cast<int64_t>(list.size() / size);
    if (count < os.list_min_count || count > os.list_max_count)
      return fail(i, quoted(key(i)) + " has " + std::to_string(count) + " entries; " + is.name + " takes " + std::to_string(os.list_min_count) +
                         (os.list_max_count == os.list_min_count ? "" : " to " + std::to_string(os.list_max_count)));
    for (std::size_t k = 0; k < list.size(); ++k) {
      const ListItemSpec& item = os.list_items[k % size];
      if (list[k] < item.min || list[k] > item.max) {
        const std::string where = size == 1 ? quoted(key(i)) + " element " + std::to_string(k) : quoted(key(i)) + " entry " + std::to_string(k / size) + ": " + item.name;
        return fail(i, where + " " + std::to_string(list[k]) + " is out of range [" + std::to_string(item.min) + ", " + std::to_string(item.max) + "]");
      }
    }
  }

  bool is_given(int i) const { return operand(i).state != OperandState::absent; }

  // reduced_by_axes: dst (a) holds data (b) reduced over the free axes listed
  // in `axes` (NKI 0.6 tensor_reduce: the last free axes, ending at the final
  // one; never axis 0), or over all free axes when `axes` is absent.
  void check_reduced_by_axes(const CheckSpec& c) {
    const TensorView& dst = operand(c.a).view;
    const TensorView& data = operand(c.b).view;
    if (!is_given(c.axes)) {  // all free axes: the earlier form, worded as column_of
      if (view_elements_per_partition(dst) != 1 || view_partitions(dst) != view_partitions(data))
        fail(c.a, quoted(key(c.a)) + " must be a [" + std::to_string(view_partitions(data)) + ", 1] column (the partitions of " + quoted(key(c.b)) +
                      "), got " + shape_text(dst));
      return;
    }
    if (view_partitions(dst) != view_partitions(data))
      return fail(c.a, quoted(key(c.a)) + " has " + std::to_string(view_partitions(dst)) + " partitions, " + quoted(key(c.b)) + " " +
                           std::to_string(view_partitions(data)) + "; they must be the same");
    const std::vector<int64_t> counts = view_counts(data);  // slices or pattern: one count per axis
    const auto rank = static_cast<int64_t>(counts.size());
    int64_t kept = 1;  // elements per partition left after the reduction
    const std::vector<int32_t>& axes = operand(c.axes).list;
    std::vector<bool> seen(static_cast<std::size_t>(rank), false);
    int64_t lowest = rank;
    std::string reduced = "axis [";
    for (std::size_t k = 0; k < axes.size(); ++k) {
      const int64_t a = axes[k] < 0 ? axes[k] + rank : axes[k];  // NumPy's negative axes
      reduced += (k ? ", " : "") + std::to_string(axes[k]);
      if (a < 0 || a >= rank)
        return fail(c.axes, quoted(key(c.axes)) + " names axis " + std::to_string(axes[k]) + " but " + quoted(key(c.b)) + " has " + std::to_string(rank) + " axes");
      if (a == 0) return fail(c.axes, quoted(key(c.axes)) + " names axis 0, the partition axis, which " + is.name + " cannot reduce");
      if (seen[static_cast<std::size_t>(a)]) return fail(c.axes, quoted(key(c.axes)) + " names axis " + std::to_string(a) + " twice");
      seen[static_cast<std::size_t>(a)] = true;
      lowest = std::min(lowest, a);
    }
    reduced += "]";
    if (lowest + static_cast<int64_t>(axes.size()) != rank)
      return fail(c.axes, quoted(key(c.axes)) + " must name the last free axes of " + quoted(key(c.b)) + ", ending at axis " + std::to_string(rank - 1) +
                              " (e.g. [" + std::to_string(rank - 1) + "]), got " + reduced.substr(5));
    for (int64_t d = 1; d < lowest; ++d) kept *= counts[static_cast<std::size_t>(d)];
    if (view_elements_per_partition(dst) != kept)
      fail(c.a, quoted(key(c.a)) + " must hold " + std::to_string(kept) + " element" + (kept == 1 ? "" : "s") + " per partition (" + quoted(key(c.b)) +
                    " reduced over " + reduced + "), got " + shape_text(dst));
  }

  // --- issue 13, data movement (dma_transpose, nc_stream_shuffle, local_gather) ---

  // transposed_by_axes: dst (a) is src (b) with its axes permuted (NKI 0.6
  // dma_transpose: (1, 0), (2, 1, 0), (3, 1, 2, 0) for a 2-, 3-, 4-D src).
  // dst's first axis is the permuted first axis, its free elements the rest.
  void check_transposed_by_axes(const CheckSpec& c) {
    const std::vector<int64_t> counts = view_counts(operand(c.b).view);
    const std::vector<int32_t> perm = transpose_axes(counts.size());
    if (perm.empty())
      return fail(c.b, quoted(key(c.b)) + " has " + std::to_string(counts.size()) + " axes; " + is.name + " transposes 2-, 3- or 4-D tensors");
    if (is_given(c.axes) && operand(c.axes).list != perm) {
      std::string want;
      for (std::size_t k = 0; k < perm.size(); ++k) {
        if (k) want += ", ";
        want += std::to_string(perm[k]);
      }
      return fail(c.axes, quoted(key(c.axes)) + " must be [" + want + "] for a " + std::to_string(counts.size()) + "-D " + quoted(key(c.b)) +
                              " (NKI supports [1, 0], [2, 1, 0] and [3, 1, 2, 0])");
    }
    const int64_t partitions = counts[static_cast<std::size_t>(perm[0])];
    if (partitions > 128)
      return fail(c.b, quoted(key(c.b)) + "'s last axis has " + std::to_string(partitions) + " elements; at most 128 (they become partitions)");
    int64_t free = 1;
    std::string want = "[";
    want += std::to_string(partitions);
    for (std::size_t k = 1; k < perm.size(); ++k) {
      free *= counts[static_cast<std::size_t>(perm[k])];
      want += ", ";
      want += std::to_string(counts[static_cast<std::size_t>(perm[k])]);
    }
    want += "]";
    const TensorView& dst = operand(c.a).view;
    if (view_partitions(dst) != partitions || view_elements_per_partition(dst) != free)
      fail(c.a, quoted(key(c.a)) + " must be " + want + " (" + quoted(key(c.b)) + " " + shape_text(operand(c.b).view) + " transposed), got " + shape_text(dst));
  }

  // shuffle_quadrants (NKI 0.6 nc_stream_shuffle): both tiles start where the
  // number of active partitions allows, hold the same elements per partition,
  // and every mask entry is a partition of the quadrant (0..31) or 255, naming
  // a src partition that exists for every dst partition it feeds.
  void check_shuffle_quadrants(const CheckSpec& c) {
    const TensorView& dst = operand(c.a).view;
    const TensorView& src = operand(c.b).view;
    if (view_elements_per_partition(dst) != view_elements_per_partition(src))
      return fail(c.b, quoted(key(c.a)) + " and " + quoted(key(c.b)) + " must have the same elements per partition: " + shape_text(dst) + " vs " + shape_text(src));
    const int64_t active = (std::max(view_partitions(dst), view_partitions(src)) + 31) / 32 * 32;
    const int64_t align = active >= 96 ? 128 : active;  // 96/128: start 0; 64: 0 or 64; 32: 0, 32, 64, 96
    for (int k : {c.a, c.b}) {
      const int64_t start = view_partition_start(program, operand(k).view);
      if (start % align != 0)
        return fail(k, quoted(key(k)) + " starts at partition " + std::to_string(start) + "; with " + std::to_string(active) +
                           " active partitions it must start at a multiple of " + std::to_string(align));
    }
    const std::vector<int32_t>& mask = operand(c.axes).list;
    for (std::size_t i = 0; i < mask.size(); ++i)
      if (mask[i] != 255 && mask[i] > 31)
        return fail(c.axes, quoted(key(c.axes)) + " element " + std::to_string(i) + " is " + std::to_string(mask[i]) + "; a partition of the quadrant (0..31) or 255");
    for (int64_t d = 0; d < view_partitions(dst); ++d) {
      const int32_t m = mask[static_cast<std::size_t>(d % 32)];
      const int64_t from = d / 32 * 32 + m;
      if (m != 255 && from >= view_partitions(src))
        return fail(c.axes, quoted(key(c.axes)) + " element " + std::to_string(d % 32) + " feeds " + quoted(key(c.a)) + " partition " + std::to_string(d) +
                                " from " + quoted(key(c.b)) + " partition " + std::to_string(from) + ", but " + quoted(key(c.b)) + " has " +
                                std::to_string(view_partitions(src)));
    }
  }

  // local_gather_layout (NKI 0.6 local_gather): index covers whole GpSimd
  // cores (16 partitions from a multiple of 16), num_elem_per_idx is a power
  // of two up to 32, num_valid_indices at most a core's indices (4096 at
  // most), and dst holds num_valid_indices * num_elem_per_idx per partition.
  void check_local_gather_layout(const CheckSpec& c) {
    const TensorView& index = operand(c.b).view;
    const int64_t start = view_partition_start(program, index), partitions = view_partitions(index);
    if (start % 16 != 0 || partitions % 16 != 0)
      return fail(c.b, quoted(key(c.b)) + " covers partitions " + std::to_string(start) + ".." + std::to_string(start + partitions - 1) +
                           "; GpSimd cores serve 16 partitions each: start and count must be multiples of 16");
    const int64_t width = operand(c.width).integer;
    if (!std::has_single_bit(static_cast<uint64_t>(width)))
      return fail(c.width, quoted(key(c.width)) + " is " + std::to_string(width) + "; one of 1, 2, 4, 8, 16, 32");
    const int64_t per_core = 16 * view_elements_per_partition(index);
    const int64_t count = is_given(c.count) ? operand(c.count).integer : per_core;
    if (count > per_core || count > 4096)
      return fail(is_given(c.count) ? c.count : c.b, std::to_string(count) + " indices per core, but a core holds " + std::to_string(per_core) +
                                                        " in " + quoted(key(c.b)) + " and uses at most 4096");
    if (view_elements_per_partition(operand(c.a).view) != count * width)
      fail(c.a, quoted(key(c.a)) + " must hold " + std::to_string(count * width) + " elements per partition (" + std::to_string(count) + " indices x " +
                    std::to_string(width) + "), got " + shape_text(operand(c.a).view));
  }

  // rng_state_shape (S11.5): a [1, 1] seed (set_rng_seed), or one row of
  // XORWOW state words per lane: 6 for GpSimd's generator, 24 for Vector's four.
  void check_rng_state_shape(const CheckSpec& c) {
    const TensorView& v = operand(c.a).view;
    if (c.engine < 0) {
      if (view_partitions(v) != 1 || view_elements_per_partition(v) != 1)
        fail(c.a, quoted(key(c.a)) + " must be a [1, 1] seed, got " + shape_text(v));
      return;
    }
    const std::string engine = enum_value_name(spec, is.operands[static_cast<std::size_t>(c.engine)], operand(c.engine).integer);
    const int64_t words = engine == "vector" ? 24 : 6;
    if (view_elements_per_partition(v) != words)
      fail(c.a, quoted(key(c.a)) + " must hold " + std::to_string(words) + " state words per partition (XORWOW, " + engine + " engine), got " +
                    shape_text(v));
  }

  // mx_scale (S13, NKI 0.6 quantize_mx/nc_matmul_mx): the packed data covers
  // whole 32-partition quadrants; each quadrant's four groups of 8 partitions
  // have their scales in partitions 32q..32q+3 of the scale tile, one per
  // packed element.
  void check_mx_scale(const CheckSpec& c) {
    const TensorView& data = operand(c.a).view;
    const TensorView& scale = operand(c.b).view;
    const int64_t p = view_partitions(data);
    if (p % 32 != 0)
      return fail(c.a, quoted(key(c.a)) + " has " + std::to_string(p) + " partitions; MX data takes a multiple of 32 (groups of 8 partitions x 4 values)");
    const int64_t needed = 32 * (p / 32 - 1) + 4;
    if (view_partitions(scale) < needed || view_elements_per_partition(scale) != view_elements_per_partition(data))
      fail(c.b, quoted(key(c.b)) + " must have " + std::to_string(view_elements_per_partition(data)) + " elements per partition and at least " +
                    std::to_string(needed) + " partitions (scales of quadrant q in partitions 32q..32q+3), got " + shape_text(scale));
  }

  // mx_matmul (NKI 0.6 nc_matmul_mx): dst is [M, N] for a [K, M] stationary, M even and at most 128.
  void check_mx_matmul(const CheckSpec& c) {
    const int64_t m = view_elements_per_partition(operand(c.b).view);
    if (m % 2 != 0 || m > 128)
      return fail(c.b, quoted(key(c.b)) + " has " + std::to_string(m) + " elements per partition; nc_matmul_mx takes an even number up to 128");
    if (view_partitions(operand(c.a).view) != m)
      fail(c.a, quoted(key(c.a)) + " must have " + std::to_string(m) + " partitions (the elements per partition of " + quoted(key(c.b)) + "), got " +
                    shape_text(operand(c.a).view));
  }

  // dma_compute_sources (NKI 0.6 dma_compute): every src is read element for
  // element against dst (S12.1: same partitions and elements per partition),
  // one scale per src, unique_indices=True, and read-modify-write (a dynamic
  // access pattern) with exactly two srcs.
  void check_dma_compute_sources(const CheckSpec& c) {
    const TensorView& dst = operand(c.a).view;
    const std::vector<TensorView>& srcs = operand(c.b).views;
    for (std::size_t k = 0; k < srcs.size(); ++k)
      if (view_partitions(srcs[k]) != view_partitions(dst) || view_elements_per_partition(srcs[k]) != view_elements_per_partition(dst))
        fail(c.b, quoted(key(c.b)) + " entry " + std::to_string(k) + " and " + quoted(key(c.a)) + " differ in shape: " + shape_text(srcs[k]) + " vs " +
                      shape_text(dst));
    if (is_given(c.axes) && operand(c.axes).list.size() != srcs.size())
      fail(c.axes, quoted(key(c.axes)) + " holds " + std::to_string(operand(c.axes).list.size()) + " scales for " + std::to_string(srcs.size()) + " srcs");
    if (operand(c.count).state == OperandState::boolean && operand(c.count).integer == 0)
      fail(c.count, quoted(key(c.count)) + "=false is not supported (NKI 0.6: unique_indices must be True)");
    bool dynamic = dst.indirect != IndirectKind::none;
    for (const TensorView& v : srcs) dynamic = dynamic || v.indirect != IndirectKind::none;
    if (dynamic && srcs.size() != 2)
      fail(c.b, "read-modify-write (a vector_offset/scalar_offset view) takes exactly 2 " + quoted(key(c.b)) + ", got " + std::to_string(srcs.size()));
  }

  // --- cross-operand checks (CheckKind, common/spec.hpp) ---
  void check_relation(const CheckSpec& c) {
    const int a = c.a, b = c.b;
    // Some checks name one operand only (exclusive: groups; the other index is -1).
    const bool ta = is_tensor(a), tb = is_tensor(b);
    switch (c.kind) {
      case CheckKind::same_shape:
        if (ta && tb && (view_partitions(operand(a).view) != view_partitions(operand(b).view) ||
                         view_elements_per_partition(operand(a).view) != view_elements_per_partition(operand(b).view)))
          fail(b, quoted(key(a)) + " and " + quoted(key(b)) + " differ in shape: " + shape_text(operand(a).view) + " vs " + shape_text(operand(b).view));
        return;
      case CheckKind::same_partitions:
        if (ta && tb && (view_partitions(operand(a).view) != view_partitions(operand(b).view) ||
                         view_partition_start(program, operand(a).view) != view_partition_start(program, operand(b).view)))
          fail(a, quoted(key(a)) + " covers partitions " + std::to_string(view_partition_start(program, operand(a).view)) + ".." +
                      std::to_string(view_partition_start(program, operand(a).view) + view_partitions(operand(a).view) - 1) + " but " + quoted(key(b)) + " covers " +
                      std::to_string(view_partition_start(program, operand(b).view)) + ".." +
                      std::to_string(view_partition_start(program, operand(b).view) + view_partitions(operand(b).view) - 1) + "; they must be the same");
        return;
      case CheckKind::same_dtype:
      case CheckKind::same_dtype_if_tensors:
        if (ta && tb && tensor_of(a).dtype != tensor_of(b).dtype)
          fail(b, quoted(key(a)) + " is " + std::string(dtype_name(tensor_of(a).dtype)) + " but " + quoted(key(b)) + " is " +
                      std::string(dtype_name(tensor_of(b).dtype)) + "; they must have the same dtype");
        return;
      case CheckKind::column_of:
        if (ta && tb && (view_elements_per_partition(operand(a).view) != 1 || view_partitions(operand(a).view) != view_partitions(operand(b).view)))
          fail(a, quoted(key(a)) + " must be a [" + std::to_string(view_partitions(operand(b).view)) + ", 1] column (the partitions of " + quoted(key(b)) +
                      "), got " + shape_text(operand(a).view));
        return;
      case CheckKind::one_more_element:
        if (ta && tb && view_elements_per_partition(operand(a).view) != view_elements_per_partition(operand(b).view) + 1)
          fail(a, quoted(key(a)) + " must have one more element per partition than " + quoted(key(b)) + " (" +
                      std::to_string(view_elements_per_partition(operand(b).view) + 1) + "), got " + std::to_string(view_elements_per_partition(operand(a).view)));
        return;
      case CheckKind::not_both_in:
        if (ta && tb && tensor_of(a).memory == c.memory && tensor_of(b).memory == c.memory)
          fail(b, quoted(key(a)) + " and " + quoted(key(b)) + " cannot both be in " + std::string(memory_name(c.memory)));
        return;
      case CheckKind::allowed_pairs: {
        if (operand(a).state != OperandState::enumerated || operand(b).state != OperandState::enumerated) return;
        for (const auto& [x, y] : c.pairs)
          if (operand(a).integer == x && operand(b).integer == y) return;
        const OperandSpec& oa = is.operands[static_cast<std::size_t>(a)];
        const OperandSpec& ob = is.operands[static_cast<std::size_t>(b)];
        std::string allowed;
        for (const auto& [x, y] : c.pairs) allowed += (allowed.empty() ? "" : ", ") + enum_value_name(spec, oa, x) + "/" + enum_value_name(spec, ob, y);
        fail(a, key(a) + "=" + enum_value_name(spec, oa, operand(a).integer) + " with " + key(b) + "=" + enum_value_name(spec, ob, operand(b).integer) +
                    " is not allowed; allowed " + key(a) + "/" + key(b) + ": " + allowed);
        return;
      }
      case CheckKind::exclusive: {
        for (int x : c.group_a)
          for (int y : c.group_b)
            if (is_given(x) && is_given(y)) {
              auto names = [&](const std::vector<int>& g) {  // for messages only
                std::string out;
                for (int k : g) out += (out.empty() ? "" : ", ") + key(k);
                return out;
              };
              return fail(y, quoted(key(y)) + " cannot be mixed with " + quoted(key(x)) + ": " + is.name + " takes either " + names(c.group_a) + " or " +
                                 names(c.group_b));
            }
        return;
      }
      case CheckKind::pattern_covers: {
        if (operand(a).state != OperandState::list || !tb) return;
        int64_t product = 1;
        const std::vector<int32_t>& list = operand(a).list;
        constexpr int64_t kCap = int64_t{1} << 40;  // beyond any tile; keeps the product from overflowing
        for (std::size_t k = 1; k < list.size(); k += 2) product = product > kCap / list[k] ? kCap + 1 : product * list[k];
        if (product != view_elements_per_partition(operand(b).view))
          fail(a, quoted(key(a)) + " generates " + std::to_string(product) + " elements per partition (the product of its nums) but " + quoted(key(b)) +
                      " has " + std::to_string(view_elements_per_partition(operand(b).view)));
        return;
      }
      case CheckKind::reduced_by_axes:
        if (ta && tb) check_reduced_by_axes(c);
        return;
      case CheckKind::partition_reduced:
        if (ta && tb && (view_partitions(operand(a).view) != 1 ||
                         view_elements_per_partition(operand(a).view) != view_elements_per_partition(operand(b).view)))
          fail(a, quoted(key(a)) + " must have 1 partition and the " + std::to_string(view_elements_per_partition(operand(b).view)) +
                      " elements per partition of " + quoted(key(b)) + " (reduced across its partitions), got " + shape_text(operand(a).view));
        return;
      case CheckKind::transposed_by_axes:
        if (ta && tb) check_transposed_by_axes(c);
        return;
      case CheckKind::shuffle_quadrants:
        if (ta && tb) check_shuffle_quadrants(c);
        return;
      case CheckKind::local_gather_layout:
        if (ta && tb) check_local_gather_layout(c);
        return;
      case CheckKind::rng_state_shape:
        if (ta) check_rng_state_shape(c);
        return;
      case CheckKind::mx_scale:
        if (ta && tb) check_mx_scale(c);
        return;
      case CheckKind::mx_matmul:
        if (ta && tb) check_mx_matmul(c);
        return;
      case CheckKind::dma_compute_sources:
        if (ta && operand(b).state == OperandState::tensor_list) check_dma_compute_sources(c);
        return;
      case CheckKind::requires_operand: {
        const Operand& oa = operand(a);
        if (oa.state == OperandState::absent) return;
        if (c.if_given) {
          if (!is_given(b)) fail(a, quoted(key(a)) + " requires " + quoted(key(b)));
          return;
        }
        bool listed = false;
        for (int v : c.values) listed = listed || oa.integer == v;
        if (listed == c.values_negated) return;
        const OperandSpec& spa = is.operands[static_cast<std::size_t>(a)];
        std::string trigger = key(a) + "=" + (spa.kind == OperandKind::boolean ? std::string(oa.integer ? "true" : "false") : enum_value_name(spec, spa, oa.integer));
        if (operand(b).state == OperandState::absent)
          fail(a, trigger + " requires " + quoted(key(b)));
        else if (c.then_not >= 0 && operand(b).state == OperandState::enumerated && operand(b).integer == c.then_not)
          fail(a, trigger + " requires " + quoted(key(b)) + " other than " + enum_value_name(spec, is.operands[static_cast<std::size_t>(b)], c.then_not));
        else if (!c.then_is.empty() && operand(b).state == OperandState::enumerated &&
                 std::find(c.then_is.begin(), c.then_is.end(), operand(b).integer) == c.then_is.end()) {
          std::string allowed;
          for (int v : c.then_is) allowed += (allowed.empty() ? "" : " or ") + enum_value_name(spec, is.operands[static_cast<std::size_t>(b)], v);
          fail(a, trigger + " requires " + key(b) + "=" + allowed);
        }
        return;
      }
      case CheckKind::on_engine: return check_on_engine(c);
      case CheckKind::transpose_of:
        if (ta && tb && (view_partitions(operand(a).view) != view_elements_per_partition(operand(b).view) ||
                         view_elements_per_partition(operand(a).view) != view_partitions(operand(b).view)))
          fail(a, quoted(key(a)) + " must be " + quoted(key(b)) + " transposed: [" + std::to_string(view_elements_per_partition(operand(b).view)) + ", " +
                      std::to_string(view_partitions(operand(b).view)) + "], got " + shape_text(operand(a).view));
        return;
      case CheckKind::matmul: return check_matmul(c);
      case CheckKind::op_class: return;  // check_op_class
      case CheckKind::element_count: {
        if (!ta) return;  // an absent optional tile
        const TensorView& v = operand(a).view;
        const int64_t n = view_elements_per_partition(v);
        if (view_partitions(v) % c.partitions_multiple_of != 0)
          return fail(a, quoted(key(a)) + " must cover a multiple of " + std::to_string(c.partitions_multiple_of) + " partitions, got " + shape_text(v));
        if (c.partitions > 0 && view_partitions(v) != c.partitions)
          return fail(a, quoted(key(a)) + " must cover exactly " + std::to_string(c.partitions) + " partition" + (c.partitions == 1 ? "" : "s") +
                             ", got " + shape_text(v));
        if (n < c.min || n > c.max || n % c.multiple_of != 0) {
          std::string want = c.min == c.max ? std::to_string(c.min) : std::to_string(c.min) + " to " + std::to_string(c.max);
          if (c.multiple_of > 1) want += ", a multiple of " + std::to_string(c.multiple_of) + ",";
          fail(a, quoted(key(a)) + " must have " + want + " element" + (c.max == 1 ? "" : "s") + " per partition, got " + std::to_string(n) + " (" +
                      shape_text(v) + ")");
        }
        return;
      }
      case CheckKind::int_at_least_elements:
      case CheckKind::int_at_most_elements: {
        if (operand(a).state != OperandState::integer || !tb) return;
        const int64_t n = operand(a).integer, e = view_elements_per_partition(operand(b).view);
        if (c.kind == CheckKind::int_at_least_elements && n < e)
          fail(a, quoted(key(a)) + " = " + std::to_string(n) + " is less than the " + std::to_string(e) + " elements per partition of " + quoted(key(b)));
        if (c.kind == CheckKind::int_at_most_elements && n > c.factor * e)
          fail(a, quoted(key(a)) + " = " + std::to_string(n) + " is more than " + std::to_string(c.factor) + " x the " + std::to_string(e) +
                      " elements per partition of " + quoted(key(b)));
        return;
      }
      case CheckKind::elements_times:
        if (ta && tb && view_elements_per_partition(operand(a).view) != c.factor * view_elements_per_partition(operand(b).view))
          fail(a, quoted(key(a)) + " must have " + std::to_string(c.factor) + " times the elements per partition of " + quoted(key(b)) + " (" +
                      std::to_string(c.factor * view_elements_per_partition(operand(b).view)) + "), got " + shape_text(operand(a).view));
        return;
      case CheckKind::index_below: {
        if (operand(a).state != OperandState::integer || !tb) return;
        // |a + i| over i = 0..n-1 is largest at one of the two ends.
        const int64_t first = operand(a).integer, last = first + view_elements_per_partition(operand(b).view) - 1;
        const int64_t worst = std::abs(first) > std::abs(last) ? first : last;
        if (std::abs(worst) >= c.limit)
          fail(a, quoted(key(a)) + " + free index of " + quoted(key(b)) + " reaches " + std::to_string(worst) + "; its magnitude must stay below " +
                      std::to_string(c.limit));
        return;
      }
    }
  }

  int arch_version() const { return spec.archs[static_cast<std::size_t>(program.arch)].version; }

  // on_engine: rules of the engine the instruction's engine= selects (NKI 0.6
  // tensor_copy: GpSimd cannot access PSUM, no Scalar copy on NeuronCore-v2;
  // nc_transpose: Tensor Engine [128, 128] from SBUF to PSUM, Vector [32, 32]).
  void check_on_engine(const CheckSpec& c) {
    const Engine engine = executing_engine(is, ins);
    if (std::find(c.values.begin(), c.values.end(), static_cast<int>(engine)) == c.values.end()) return;
    const std::string on = " on the " + std::string(engine_name(engine)) + " engine";
    if (c.then_not > 0 && arch_version() < c.then_not) {
      std::string core = "NeuronCore-v" + std::to_string(c.then_not);
      fail(is.engine_operand, is.name + on + " needs " + core + " or later");
    }
    for (int o : c.group_a) {
      if (!is_tensor(o)) continue;
      if (c.memory_given && tensor_of(o).memory != c.memory)
        fail(o, quoted(key(o)) + " is '" + tensor_of(o).name + "' in " + std::string(memory_name(tensor_of(o).memory)) + "; " + is.name + on +
                    " needs it in " + std::string(memory_name(c.memory)));
      const int64_t parts = view_partitions(operand(o).view), elems = view_elements_per_partition(operand(o).view);
      if (c.limit > 0 && (parts > c.limit || elems > c.limit))
        fail(o, quoted(key(o)) + " is " + shape_text(operand(o).view) + "; " + is.name + on + " takes at most [" + std::to_string(c.limit) + ", " +
                    std::to_string(c.limit) + "]");
    }
  }

  // matmul: NKI 0.6 nc_matmul (docstring "Tiling mode", "Data types",
  // "Layout", "Tile size"; SEMANTICS.md S8.3).
  void check_matmul(const CheckSpec& c) {
    const int dst = c.group_a[0], stat = c.group_a[1], mov = c.group_a[2], pos = c.group_a[3], size = c.group_a[4], perf = c.group_a[5],
              transpose = c.group_a[6];
    if (!is_tensor(dst) || !is_tensor(stat) || !is_tensor(mov)) return;
    const int version = arch_version();
    const bool double_row = operand(perf).state == OperandState::enumerated &&
                            enum_value_name(spec, is.operands[static_cast<std::size_t>(perf)], operand(perf).integer) == "double_row";
    const bool is_transpose = operand(transpose).state == OperandState::boolean && operand(transpose).integer != 0;
    const Dtype ds = tensor_of(stat).dtype, dm = tensor_of(mov).dtype, dd = tensor_of(dst).dtype;
    auto dname = [](Dtype d) { return std::string(dtype_name(d)); };
    // Data types.
    for (int o : {stat, mov})
      if (tensor_of(o).dtype == Dtype::fp8e4m3fn && version < 4)
        fail(o, quoted(key(o)) + " is fp8e4m3fn, which nc_matmul takes from NeuronCore-v4 on");
    if ((ds == Dtype::fp8e4m3 && dm == Dtype::fp8e4m3fn) || (ds == Dtype::fp8e4m3fn && dm == Dtype::fp8e4m3))
      fail(mov, quoted(key(stat)) + " is " + dname(ds) + " and " + quoted(key(mov)) + " " + dname(dm) + ": legacy fp8e4m3 and OCP fp8e4m3fn cannot be mixed");
    const auto wide = [](Dtype d) { return d == Dtype::f32 || d == Dtype::tf32; };
    if (wide(ds) != wide(dm))
      fail(mov, quoted(key(stat)) + " is " + dname(ds) + " and " + quoted(key(mov)) + " " + dname(dm) + ": if one input is float32 or tfloat32, the other must be too");
    const bool dst_ok = dd == Dtype::f32 || (dd == Dtype::bf16 && version >= 4) || (is_transpose && dd == ds);
    if (!dst_ok)
      fail(dst, quoted(key(dst)) + " is " + dname(dd) + "; nc_matmul writes f32" + std::string(version >= 4 ? " or bf16" : " (bf16 from NeuronCore-v4 on)") +
                    (is_transpose ? " or, with is_transpose, the stationary's dtype" : ""));
    // Tiling mode: both or neither; sizes 32/64/128 (32 from NeuronCore-v3), positions multiples of the sizes.
    int64_t row_size = 128, column_size = 128;
    if (is_given(pos) != is_given(size)) return fail(is_given(pos) ? pos : size, "tile_position and tile_size must be given together");
    if (is_given(size)) {
      const std::vector<int32_t>& ts = operand(size).list;
      const std::vector<int32_t>& tp = operand(pos).list;
      const char* axis[] = {"row", "column"};
      for (std::size_t k = 0; k < 2; ++k) {
        if (ts[k] != 32 && ts[k] != 64 && ts[k] != 128)
          return fail(size, std::string("tile_size ") + axis[k] + " size " + std::to_string(ts[k]) + " must be 32, 64 or 128");
        if (ts[k] == 32 && version < 3) return fail(size, std::string("tile_size ") + axis[k] + " size 32 needs NeuronCore-v3 or later");
        if (tp[k] % ts[k] != 0 || tp[k] + ts[k] > 128)
          return fail(pos, std::string("tile_position ") + axis[k] + " " + std::to_string(tp[k]) + " must be a multiple of the tile size " +
                               std::to_string(ts[k]) + " inside the 128 PE " + axis[k] + "s");
      }
      row_size = ts[0];
      column_size = ts[1];
    }
    if (double_row) {
      if (version < 3) fail(perf, "perf_mode=double_row needs NeuronCore-v3 or later");
      if (column_size != 128) fail(perf, "perf_mode=double_row cannot be combined with column tiling (tile_size column " + std::to_string(column_size) + ")");
      for (int o : {stat, mov}) {
        const Dtype d = tensor_of(o).dtype;
        if (d != Dtype::fp8e4m3 && d != Dtype::fp8e5m2 && d != Dtype::fp8e4m3fn)
          fail(o, quoted(key(o)) + " is " + dname(d) + "; perf_mode=double_row takes fp8e4m3, fp8e5m2" + std::string(version >= 4 ? " or fp8e4m3fn" : ""));
        const std::vector<int64_t> counts = view_counts(operand(o).view);
        if (counts.size() != 3 || counts[1] != 2)
          return fail(o, quoted(key(o)) + " is " + shape_text(operand(o).view) + "; with perf_mode=double_row it must be [K, 2, F]");
      }
    }
    // Layout and tile size.
    const int64_t k_stat = view_partitions(operand(stat).view), k_mov = view_partitions(operand(mov).view);
    const int64_t split = double_row ? 2 : 1;
    const int64_t m = view_elements_per_partition(operand(stat).view) / split, n = view_elements_per_partition(operand(mov).view) / split;
    if (k_stat != k_mov)
      return fail(mov, quoted(key(stat)) + " has " + std::to_string(k_stat) + " partitions and " + quoted(key(mov)) + " " + std::to_string(k_mov) +
                           "; the contraction (partition) sizes must be equal");
    if (k_stat > row_size)
      return fail(stat, quoted(key(stat)) + " has " + std::to_string(k_stat) + " partitions, more than the " + std::to_string(row_size) + " PE rows" +
                            (row_size < 128 ? " of tile_size" : ""));
    if (m > column_size)
      return fail(stat, quoted(key(stat)) + " has " + std::to_string(m) + " columns (elements per partition), more than the " + std::to_string(column_size) +
                            " PE columns" + (column_size < 128 ? " of tile_size" : ""));
    if (view_partitions(operand(dst).view) != m || view_elements_per_partition(operand(dst).view) != n)
      return fail(dst, quoted(key(dst)) + " must be [" + std::to_string(m) + ", " + std::to_string(n) + "] (stationary's columns x moving's), got " +
                           shape_text(operand(dst).view));
    const ArchSpec& arch = spec.archs[static_cast<std::size_t>(program.arch)];
    const int64_t limit_bytes = version >= 4 ? arch.psum_partition_bytes : arch.psum_bank_bytes;
    const int64_t dst_size = static_cast<int64_t>(dtype_size(dd));
    if (n * dst_size > limit_bytes)
      fail(mov, quoted(key(mov)) + " has " + std::to_string(n) + " columns; nc_matmul writes at most " + std::to_string(limit_bytes / dst_size) + " " +
                    dname(dd) + " per partition (" + (version >= 4 ? "the whole PSUM" : "one PSUM bank") + ")");
  }

  // NKI's operator classes (nki.api.shared.rst, "Supported Math Operators";
  // S7): the ops of one instruction are all bitvec or all arithmetic; bitvec
  // operators act on integer bit patterns, so their tiles are integer (a float
  // tile would be reinterpreted, not converted); arithmetic scalars are float.
  void check_op_class(const CheckSpec& c) {
    int bitvec = -1, arithmetic = -1;
    for (int k : c.ops) {
      if (operand(k).state != OperandState::enumerated) continue;
      const EnumSpec& es = spec.enums[static_cast<std::size_t>(is.operands[static_cast<std::size_t>(k)].enum_id)];
      const OpClass cls = es.values[static_cast<std::size_t>(operand(k).integer)].op_class;
      if (cls == OpClass::bitvec && bitvec < 0) bitvec = k;
      if (cls == OpClass::arithmetic && arithmetic < 0) arithmetic = k;
    }
    auto value = [&](int k) { return key(k) + "=" + enum_value_name(spec, is.operands[static_cast<std::size_t>(k)], operand(k).integer); };
    if (bitvec >= 0 && arithmetic >= 0) {
      fail(std::max(bitvec, arithmetic), value(bitvec) + " is a bitvec operator and " + value(arithmetic) +
                                             " an arithmetic one; the operators of one " + is.name + " must be of the same kind");
      return;
    }
    if (bitvec >= 0) {
      for (int t : c.integer_if_bitvec)
        if (is_tensor(t) && !dtype_is_int(tensor_of(t).dtype))
          fail(t, quoted(key(t)) + " is '" + tensor_of(t).name + "' of dtype " + std::string(dtype_name(tensor_of(t).dtype)) + "; " + value(bitvec) +
                      " is a bitvec operator, which acts on integer bit patterns: allowed: " + dtype_list(spec, integer_dtype_mask()));
      for (int f : c.false_if_bitvec)
        if (operand(f).state == OperandState::boolean && operand(f).integer != 0)
          fail(f, quoted(key(f)) + " applies to arithmetic operators only, not to " + value(bitvec));
    } else {
      for (int t : c.float_if_arithmetic)
        if (is_tensor(t) && !dtype_is_float(tensor_of(t).dtype))
          fail(t, quoted(key(t)) + " is '" + tensor_of(t).name + "' of dtype " + std::string(dtype_name(tensor_of(t).dtype)) +
                      "; with arithmetic operators it must be a float dtype (allowed: " + dtype_list(spec, ~integer_dtype_mask()) + ")");
    }
  }

  uint32_t integer_dtype_mask() const {
    uint32_t m = 0;
    for (const auto& d : spec.dtypes)
      if (dtype_is_int(d.dtype)) m |= 1u << static_cast<int>(d.dtype);
    return m;
  }

  void run() {
    if (ins.operands.size() != is.operands.size()) {
      fail(-1, is.name + " has " + std::to_string(is.operands.size()) + " operands, got " + std::to_string(ins.operands.size()));
      return;
    }
    check_arch();
    const std::size_t before = failures.size();
    for (int i = 0; i < static_cast<int>(is.operands.size()); ++i) check_operand(i);
    if (failures.size() != before) return;  // relations assume valid operands
    for (const CheckSpec& c : is.checks) {
      if (c.kind == CheckKind::op_class) check_op_class(c);
      else check_relation(c);
    }
  }
};

}  // namespace

std::vector<CheckFailure> check_instruction(const Spec& spec, const Program& program, const Instruction& ins) {
  if (ins.spec_index < 0 || static_cast<std::size_t>(ins.spec_index) >= spec.instructions.size())
    return {{-1, "unknown instruction number " + std::to_string(ins.spec_index)}};
  if (program.arch < 0 || static_cast<std::size_t>(program.arch) >= spec.archs.size())
    return {{-1, "unknown arch number " + std::to_string(program.arch)}};
  InstructionChecker c{spec, program, ins, spec.instructions[static_cast<std::size_t>(ins.spec_index)], {}};
  c.run();
  return std::move(c.failures);
}

}  // namespace nisa
