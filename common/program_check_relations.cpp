// check_instruction's cross-operand checks: the spec's `constraints` of one
// instruction (CheckKind, common/spec.hpp), run once every operand passed
// its own checks (program_check.cpp).
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>

#include "instruction_checker.hpp"

namespace nisa::check_detail {

void InstructionChecker::check_reduced_by_axes(const CheckSpec& c) {
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

void InstructionChecker::check_transposed_by_axes(const CheckSpec& c) {
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

void InstructionChecker::check_shuffle_quadrants(const CheckSpec& c) {
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

void InstructionChecker::check_local_gather_layout(const CheckSpec& c) {
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

void InstructionChecker::check_rng_state_shape(const CheckSpec& c) {
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

void InstructionChecker::check_mx_scale(const CheckSpec& c) {
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

void InstructionChecker::check_mx_matmul(const CheckSpec& c) {
  const int64_t m = view_elements_per_partition(operand(c.b).view);
  if (m % 2 != 0 || m > 128)
    return fail(c.b, quoted(key(c.b)) + " has " + std::to_string(m) + " elements per partition; nc_matmul_mx takes an even number up to 128");
  if (view_partitions(operand(c.a).view) != m)
    fail(c.a, quoted(key(c.a)) + " must have " + std::to_string(m) + " partitions (the elements per partition of " + quoted(key(c.b)) + "), got " +
                  shape_text(operand(c.a).view));
}

void InstructionChecker::check_dma_compute_sources(const CheckSpec& c) {
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

void InstructionChecker::check_relation(const CheckSpec& c) {
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
    case CheckKind::same_dtype_if_mx:
      if (ta && tb && tensor_of(a).dtype != tensor_of(b).dtype &&
          (dtype_is_mx(tensor_of(a).dtype) || dtype_is_mx(tensor_of(b).dtype)))
        fail(b, quoted(key(a)) + " is " + std::string(dtype_name(tensor_of(a).dtype)) + " but " + quoted(key(b)) + " is " +
                    std::string(dtype_name(tensor_of(b).dtype)) + "; an MX dtype is copied as bits, never converted, so they must have the same dtype");
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
    case CheckKind::tensor_indirection:
      if (ta && tb) check_tensor_indirection(c);
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

void InstructionChecker::check_on_engine(const CheckSpec& c) {
  const Engine engine = executing_engine(is, ins);
  if (std::find(c.values.begin(), c.values.end(), static_cast<int>(engine)) == c.values.end()) return;
  const std::string on = " on the " + std::string(engine_name(engine)) + " engine";
  if (c.then_not > 0 && arch_version() < c.then_not) {
    std::string core = "NeuronCore-v" + std::to_string(c.then_not);
    fail(is.engine_operand, is.name + on + " needs " + core + " or later");
  }
  // "refuses": what the engine has not (NKI 0.7 activation: "Accumulator is
  // only available on the Scalar engine").
  for (int o : c.group_b)
    if (operand(o).state != OperandState::absent && !operand_is_default(is.operands[static_cast<std::size_t>(o)], operand(o)))
      fail(o, quoted(key(o)) + " is not available to " + is.name + on);
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

void InstructionChecker::check_matmul(const CheckSpec& c) {
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

void InstructionChecker::check_op_class(const CheckSpec& c) {
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

}  // namespace nisa::check_detail
