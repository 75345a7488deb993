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
#include <limits>

#include "instruction_checker.hpp"

namespace nisa::check_detail {

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
    case OperandState::string: return "a string";
    case OperandState::reg: return "a register";
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

void InstructionChecker::check_arch() {
  const ArchSpec& arch = spec.archs[static_cast<std::size_t>(program.arch)];
  if (arch.version >= is.first_arch_version) return;
  std::string core = "NeuronCore-v" + std::to_string(is.first_arch_version);
  for (const auto& a : spec.archs)
    if (a.version == is.first_arch_version) core = a.neuroncore;
  // S1.2: name the instruction, the arch it needs and the .arch line that allows it.
  fail(-1, is.name + " needs " + core + ": add '.arch " + is.first_arch + "'");
}

bool InstructionChecker::check_view(int i, const TensorView& v) {
  if (v.tensor < 0 || static_cast<std::size_t>(v.tensor) >= program.tensors.size()) {
    fail(i, quoted(key(i)) + " names tensor number " + std::to_string(v.tensor) + " of " + std::to_string(program.tensors.size()));
    return false;
  }
  const TensorDecl& t = program.tensors[static_cast<std::size_t>(v.tensor)];
  // A Program built without the assembler (nisa.nki's recording) may set
  // these fields on any view: they mean something on a dynamic pattern only.
  if ((v.indirect != IndirectKind::none && !v.is_pattern) || (v.indirect == IndirectKind::none && v.index_stride != 0)) {
    fail(i, quoted(key(i)) + ": " + (v.is_pattern ? "index_stride needs vector_offset or scalar_offset" : "a runtime index needs the .ap(...) form"));
    return false;
  }
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

bool InstructionChecker::check_pattern(int i, const TensorView& v) {
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
    if (k == 1 && v.indirect == IndirectKind::tensor) continue;  // runtime columns, bounded when the step runs
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

// The index view of a vector_offset / scalar_offset (`form`) view: one
// static integer SBUF view, [P, 1] for a vector, one element for a scalar.
bool InstructionChecker::check_index_view(int i, const TensorView& v, const std::string& form) {
  const bool vector = v.indirect == IndirectKind::vector;
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
  }
  return true;
}

bool InstructionChecker::check_indirect(int i, const TensorView& v) {
  const TensorDecl& t = program.tensors[static_cast<std::size_t>(v.tensor)];
  if (v.indirect == IndirectKind::tensor) return check_tensor_indirect_view(i, v);
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
  if (v.index_register >= 0) {
    // scalar_offset=REG (S17.3): the register holds the index; its value is
    // bounded when the instruction runs, as an index tensor's is.
    if (vector || !v.index.empty() || static_cast<std::size_t>(v.index_register) >= program.registers.size()) {
      fail(i, quoted(key(i)) + ": a register offset is a scalar_offset of a declared register");
      return false;
    }
  } else if (!check_index_view(i, v, form)) {
    return false;
  }
  if (!vector && (v.indirect_dim < 0 || static_cast<std::size_t>(v.indirect_dim) >= t.shape.size())) {
    fail(i, quoted(key(i)) + ": indirect_dim " + std::to_string(v.indirect_dim) + " is not a dimension of '" + t.name + "' (" +
                std::to_string(t.shape.size()) + " dimensions)");
    return false;
  }
  // index_stride (LANGUAGE.md 2.3): positive, and at most the tensor, beyond
  // which only index 0 could ever stay inside it.
  const int64_t total = element_count(t.shape);
  if (v.index_stride < 0 || v.index_stride > total) {
    fail(i, quoted(key(i)) + ": index_stride " + std::to_string(v.index_stride) + " must be 1 to the " + std::to_string(total) +
                " elements of '" + t.name + "'");
    return false;
  }
  return true;
}

void InstructionChecker::check_distinct_elements(int i) {
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

void InstructionChecker::check_alignment(int i) {
  if (!spec.engine(executing_engine(is, ins)).partition_alignment || tensor_of(i).memory == Memory::hbm) return;
  int64_t n = view_partitions(operand(i).view), start = view_partition_start(program, operand(i).view);
  int64_t unit = n > 64 ? 128 : n > 32 ? 64 : 32;
  if (start % unit == 0) return;
  std::string allowed = n > 64 ? "0" : n > 32 ? "0 or 64" : "0, 32, 64 or 96";
  fail(i, quoted(key(i)) + " spans " + std::to_string(n) + " partitions starting at " + std::to_string(start) + "; " + is.name +
              " needs a start of " + allowed + " (S1.5 partition alignment)");
}

void InstructionChecker::check_tensor_operand(int i) {
  if (!check_view(i)) return;
  if (std::find(is.cost.written.begin(), is.cost.written.end(), i) != is.cost.written.end()) check_distinct_elements(i);
  if (check_memory_and_dtype(i, tensor_of(i))) check_alignment(i);
}

bool InstructionChecker::check_memory_and_dtype(int i, const TensorDecl& t) {
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

void InstructionChecker::check_tensor_list_operand(int i) {
  const OperandSpec& os = is.operands[static_cast<std::size_t>(i)];
  const auto count = static_cast<int64_t>(operand(i).views.size());
  if (count < os.list_min_count || count > os.list_max_count)
    return fail(i, quoted(key(i)) + " holds " + std::to_string(count) + " tensors; " + is.name + " takes " + std::to_string(os.list_min_count) +
                       " to " + std::to_string(os.list_max_count));
  for (const TensorView& v : operand(i).views)
    if (check_view(i, v)) check_memory_and_dtype(i, program.tensors[static_cast<std::size_t>(v.tensor)]);
}

void InstructionChecker::check_scalar_operand(int i) {
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

void InstructionChecker::check_operand(int i) {
  const OperandSpec& os = is.operands[static_cast<std::size_t>(i)];
  const Operand& o = operand(i);
  if (o.state == OperandState::absent) {
    if (!os.optional_without_default()) fail(i, quoted(key(i)) + " is missing");
    return;
  }
  if (os.since_nki > program.nki && !operand_is_default(os, o)) {
    // The operand's NKI version is later than the program's (`.nki`, LANGUAGE.md 2.1).
    const std::string& since = spec.nki_versions[static_cast<std::size_t>(os.since_nki)];
    return fail(i, quoted(key(i)) + " is NKI " + since + "'s: add '.nki " + since + "'");
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
    case OperandKind::reg:
    case OperandKind::reg_or_int:
      if (o.state == OperandState::reg) {
        if (o.integer < 0 || static_cast<std::size_t>(o.integer) >= program.registers.size())
          fail(i, quoted(key(i)) + " names register " + std::to_string(o.integer) + " of " + std::to_string(program.registers.size()));
        return;
      }
      if (os.kind == OperandKind::reg || o.state != OperandState::integer)
        return fail(i, quoted(key(i)) + " must be a register" + (os.kind == OperandKind::reg ? "" : " or an integer") + ", got " + got());
      if (o.integer < os.int_min || o.integer > os.int_max)
        fail(i, quoted(key(i)) + " = " + std::to_string(o.integer) + " is out of range [" + std::to_string(os.int_min) + ", " + std::to_string(os.int_max) + "]");
      return;
    case OperandKind::string:
      if (o.state != OperandState::string) return fail(i, quoted(key(i)) + " must be a string, got " + got());
      if (o.integer < 0 || static_cast<std::size_t>(o.integer) >= program.strings.size())
        return fail(i, quoted(key(i)) + " names string " + std::to_string(o.integer) + " of " + std::to_string(program.strings.size()));
      if (first_bad_string_byte(program.strings[static_cast<std::size_t>(o.integer)]) != std::string_view::npos)
        fail(i, quoted(key(i)) + ": a string holds no '\"' and no control character (LANGUAGE.md 2.3)");
      return;
  }
}

void InstructionChecker::check_list_operand(int i) {
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

uint32_t InstructionChecker::integer_dtype_mask() const {
  uint32_t m = 0;
  for (const auto& d : spec.dtypes)
    if (dtype_is_int(d.dtype)) m |= 1u << static_cast<int>(d.dtype);
  return m;
}

void InstructionChecker::run() {
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

}  // namespace nisa::check_detail

namespace nisa {

using check_detail::InstructionChecker;

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
