// check_instruction: everything the spec says about one instruction, so that
// a program passing it runs without bounds checks (program_check.hpp). First
// each operand alone (kind, value range, view inside its tensor, memory,
// dtype, S1.5 alignment), then, only if all of those hold, the spec's
// cross-operand checks.
#include <bit>
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
  bool is_tensor(int i) const { return operand(i).state == OperandState::tensor; }
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
  bool check_view(int i) {
    const TensorView& v = operand(i).view;
    if (v.tensor < 0 || static_cast<std::size_t>(v.tensor) >= program.tensors.size()) {
      fail(i, quoted(key(i)) + " names tensor number " + std::to_string(v.tensor) + " of " + std::to_string(program.tensors.size()));
      return false;
    }
    const TensorDecl& t = tensor_of(i);
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

  // S1.5: >64 partitions start at 0; 33..64 at 0 or 64; 1..32 at a multiple of 32.
  void check_alignment(int i) {
    if (!spec.engine(is.engine).partition_alignment || tensor_of(i).memory == Memory::hbm) return;
    int64_t n = view_partitions(operand(i).view), start = view_partition_start(operand(i).view);
    int64_t unit = n > 64 ? 128 : n > 32 ? 64 : 32;
    if (start % unit == 0) return;
    std::string allowed = n > 64 ? "0" : n > 32 ? "0 or 64" : "0, 32, 64 or 96";
    fail(i, quoted(key(i)) + " spans " + std::to_string(n) + " partitions starting at " + std::to_string(start) + "; " + is.name +
                " needs a start of " + allowed + " (S1.5 partition alignment)");
  }

  void check_tensor_operand(int i) {
    const OperandSpec& os = is.operands[static_cast<std::size_t>(i)];
    if (!check_view(i)) return;
    const TensorDecl& t = tensor_of(i);
    if (!os.allows_memory(t.memory)) {
      fail(i, quoted(key(i)) + " is '" + t.name + "' in " + std::string(memory_name(t.memory)) + "; " + is.name + " allows " + join_memories(os.memories) + " here");
      return;
    }
    if (!os.allows_dtype(t.dtype)) {
      fail(i, quoted(key(i)) + " is '" + t.name + "' of dtype " + std::string(dtype_name(t.dtype)) + "; allowed: " + dtype_list(spec, os.dtype_mask));
      return;
    }
    check_alignment(i);
  }

  // Scalars stored as exact int32 when the named tensor operand is of an integer dtype.
  bool scalar_is_integer(const OperandSpec& os) const {
    if (os.integer_if_dtype_of < 0 || !is_tensor(os.integer_if_dtype_of)) return false;
    const TensorView& v = operand(os.integer_if_dtype_of).view;
    if (v.tensor < 0 || static_cast<std::size_t>(v.tensor) >= program.tensors.size()) return false;
    return dtype_is_int(program.tensors[static_cast<std::size_t>(v.tensor)].dtype);
  }

  void check_scalar_operand(int i) {
    const OperandSpec& os = is.operands[static_cast<std::size_t>(i)];
    const Operand& o = operand(i);
    if (scalar_is_integer(os)) {
      if (o.state != OperandState::integer) {
        fail(i, quoted(key(i)) + " must be an exact integer because '" + key(os.integer_if_dtype_of) + "' has an integer dtype");
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
    const auto rank = static_cast<int64_t>(data.dims.size());
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
    for (int64_t d = 1; d < lowest; ++d) kept *= data.dims[static_cast<std::size_t>(d)].count;
    if (view_elements_per_partition(dst) != kept)
      fail(c.a, quoted(key(c.a)) + " must hold " + std::to_string(kept) + " element" + (kept == 1 ? "" : "s") + " per partition (" + quoted(key(c.b)) +
                    " reduced over " + reduced + "), got " + shape_text(dst));
  }

  // --- cross-operand checks (CheckKind, common/spec.hpp) ---
  void check_relation(const CheckSpec& c) {
    const int a = c.a, b = c.b;
    const bool ta = is_tensor(a), tb = is_tensor(b);
    switch (c.kind) {
      case CheckKind::same_shape:
        if (ta && tb && (view_partitions(operand(a).view) != view_partitions(operand(b).view) ||
                         view_elements_per_partition(operand(a).view) != view_elements_per_partition(operand(b).view)))
          fail(b, quoted(key(a)) + " and " + quoted(key(b)) + " differ in shape: " + shape_text(operand(a).view) + " vs " + shape_text(operand(b).view));
        return;
      case CheckKind::same_partitions:
        if (ta && tb && (view_partitions(operand(a).view) != view_partitions(operand(b).view) ||
                         view_partition_start(operand(a).view) != view_partition_start(operand(b).view)))
          fail(a, quoted(key(a)) + " covers partitions " + std::to_string(view_partition_start(operand(a).view)) + ".." +
                      std::to_string(view_partition_start(operand(a).view) + view_partitions(operand(a).view) - 1) + " but " + quoted(key(b)) + " covers " +
                      std::to_string(view_partition_start(operand(b).view)) + ".." +
                      std::to_string(view_partition_start(operand(b).view) + view_partitions(operand(b).view) - 1) + "; they must be the same");
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

  void run() {
    if (ins.operands.size() != is.operands.size()) {
      fail(-1, is.name + " has " + std::to_string(is.operands.size()) + " operands, got " + std::to_string(ins.operands.size()));
      return;
    }
    check_arch();
    const std::size_t before = failures.size();
    for (int i = 0; i < static_cast<int>(is.operands.size()); ++i) check_operand(i);
    if (failures.size() != before) return;  // relations assume valid operands
    for (const CheckSpec& c : is.checks) check_relation(c);
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
