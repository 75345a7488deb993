// The cross-operand checks of an instruction's "constraints" list (spec.hpp
// CheckKind), validated with the JSON path of every defect.
#include <algorithm>
#include <iterator>
#include <set>

#include "spec_json_node.hpp"

namespace nisa::spec_json {

int operand_ref(const Node& n, const InstructionSpec& ins) {
  int i = ins.find_operand(n.str());
  if (i < 0) n.fail("instruction " + ins.name + " has no operand \"" + n.str() + "\"");
  return i;
}

CheckSpec parse_check(const Node& c, const Spec& spec, const InstructionSpec& ins) {
  static const std::pair<const char*, CheckKind> kinds[] = {
      {"same_shape", CheckKind::same_shape},
      {"same_partitions", CheckKind::same_partitions},
      {"same_dtype", CheckKind::same_dtype},
      {"same_dtype_if_tensors", CheckKind::same_dtype_if_tensors},
      {"same_dtype_if_mx", CheckKind::same_dtype_if_mx},
      {"column_of", CheckKind::column_of},
      {"one_more_element", CheckKind::one_more_element},
      {"not_both_in", CheckKind::not_both_in},
      {"allowed_pairs", CheckKind::allowed_pairs},
      {"requires", CheckKind::requires_operand},
      {"index_below", CheckKind::index_below},
      {"op_class", CheckKind::op_class},
      {"exclusive", CheckKind::exclusive},
      {"pattern_covers", CheckKind::pattern_covers},
      {"reduced_by_axes", CheckKind::reduced_by_axes},
      {"on_engine", CheckKind::on_engine},
      {"transpose_of", CheckKind::transpose_of},
      {"matmul", CheckKind::matmul},
      {"partition_reduced", CheckKind::partition_reduced},
      {"element_count", CheckKind::element_count},
      {"elements_times", CheckKind::elements_times},
      {"int_at_least_elements", CheckKind::int_at_least_elements},
      {"int_at_most_elements", CheckKind::int_at_most_elements},
      {"transposed_by_axes", CheckKind::transposed_by_axes},
      {"shuffle_quadrants", CheckKind::shuffle_quadrants},
      {"local_gather_layout", CheckKind::local_gather_layout},
      {"rng_state_shape", CheckKind::rng_state_shape},
      {"mx_scale", CheckKind::mx_scale},
      {"mx_matmul", CheckKind::mx_matmul},
      {"dma_compute_sources", CheckKind::dma_compute_sources},
      {"tensor_indirection", CheckKind::tensor_indirection},
  };
  CheckSpec cs;
  Node k = c.at("check");
  std::string name = k.str();
  bool found = false;
  for (const auto& [n, kind] : kinds)
    if (name == n) { cs.kind = kind; found = true; }
  if (!found) k.fail("unknown check \"" + name + "\"");

  auto enum_of = [&](int operand, const Node& where) -> const EnumSpec& {
    if (ins.operands[operand].kind != OperandKind::enumeration) where.fail("operand " + ins.operands[operand].name + " is not an enum");
    return spec.enums[ins.operands[operand].enum_id];
  };

  if (cs.kind == CheckKind::exclusive) {
    for (const auto& [key, group] : {std::pair{"operands", &cs.group_a}, std::pair{"with", &cs.group_b}}) {
      Node g = c.at(key);
      for (std::size_t i = 0; i < g.size(); ++i) {
        const int op = operand_ref(g.at(i), ins);
        if (ins.operands[static_cast<std::size_t>(op)].required) g.at(i).fail("a required operand is always given");
        group->push_back(op);
      }
      if (group->empty()) g.fail("an empty group");
    }
    return cs;
  }
  if (cs.kind == CheckKind::requires_operand && c.has("if_given")) {
    // "if A is given (any value), then B is given".
    cs.a = operand_ref(c.at("if_given"), ins);
    cs.b = operand_ref(c.at("then"), ins);
    cs.if_given = true;
    if (!ins.operands[static_cast<std::size_t>(cs.a)].optional_without_default()) c.at("if_given").fail("operand is never absent");
    return cs;
  }
  if (cs.kind == CheckKind::requires_operand) {
    cs.a = operand_ref(c.at("if"), ins);
    cs.b = operand_ref(c.at("then"), ins);
    bool negated = c.has("is_not");
    Node vals = negated ? c.at("is_not") : c.at("is");
    cs.values_negated = negated;
    for (std::size_t i = 0; i < vals.size(); ++i) {
      Node v = vals.at(i);
      if (ins.operands[cs.a].kind == OperandKind::boolean) {
        cs.values.push_back(v.boolean() ? 1 : 0);
      } else {
        int e = enum_of(cs.a, c.at("if")).find(v.str());
        if (e < 0) v.fail("not a value of the operand's enum");
        cs.values.push_back(e);
      }
    }
    if (c.has("then_is")) {
      Node then_is = c.at("then_is");
      for (std::size_t i = 0; i < then_is.size(); ++i) {
        const int e = enum_of(cs.b, c.at("then")).find(then_is.at(i).str());
        if (e < 0) then_is.at(i).fail("not a value of the operand's enum");
        cs.then_is.push_back(e);
      }
    }
    if (c.has("then_not")) {
      cs.then_not = enum_of(cs.b, c.at("then")).find(c.at("then_not").str());
      if (cs.then_not < 0) c.at("then_not").fail("not a value of the operand's enum");
    }
    return cs;
  }

  // on_engine, tensor_indirection: "engines": [...] into cs.values.
  auto parse_engine_list = [&] {
    Node engines = c.at("engines");
    for (std::size_t i = 0; i < engines.size(); ++i) {
      int engine = -1;
      for (int e = 0; e < kEngineCount; ++e)
        if (engine_name(static_cast<Engine>(e)) == engines.at(i).str()) engine = e;
      if (engine < 0) engines.at(i).fail("unknown engine \"" + engines.at(i).str() + "\"");
      cs.values.push_back(engine);
    }
    if (cs.values.empty()) engines.fail("no engines");
  };
  // {"operands": [dst, input], "engines": the engines that run it with an .indirect() view}
  if (cs.kind == CheckKind::tensor_indirection) parse_engine_list();
  if (cs.kind == CheckKind::on_engine) {
    // {"engines": [...], "operands": [...], "memory": M, "max_size": S, "arch": A, "refuses": [...]}
    parse_engine_list();
    if (c.has("operands")) {
      Node ops = c.at("operands");
      for (std::size_t i = 0; i < ops.size(); ++i) {
        const int op = operand_ref(ops.at(i), ins);
        const OperandKind kind = ins.operands[static_cast<std::size_t>(op)].kind;
        if (kind != OperandKind::tensor && kind != OperandKind::tensor_or_scalar) ops.at(i).fail("not a tensor operand");
        cs.group_a.push_back(op);
      }
    }
    if (c.has("refuses")) {  // operands that must be absent (or their default) on these engines
      Node refused = c.at("refuses");
      for (std::size_t i = 0; i < refused.size(); ++i) {
        const int op = operand_ref(refused.at(i), ins);
        if (ins.operands[static_cast<std::size_t>(op)].required) refused.at(i).fail("a required operand is always given");
        cs.group_b.push_back(op);
      }
    }
    if (c.has("memory")) {
      cs.memory = parse_memory(c.at("memory"));
      cs.memory_given = true;
    }
    if (c.has("max_size")) cs.limit = c.at("max_size").integer(1, 1 << 20);
    if (c.has("arch")) {
      const int a = spec.find_arch(c.at("arch").str());
      if (a < 0) c.at("arch").fail("unknown arch \"" + c.at("arch").str() + "\"");
      cs.then_not = spec.archs[static_cast<std::size_t>(a)].version;
    }
    return cs;
  }
  if (cs.kind == CheckKind::matmul) {
    Node ops = c.at("operands");
    static const char* const roles[] = {"dst", "stationary", "moving", "tile_position", "tile_size", "perf_mode", "is_transpose"};
    if (ops.size() != std::size(roles)) ops.fail("matmul names dst, stationary, moving, tile_position, tile_size, perf_mode, is_transpose");
    for (std::size_t i = 0; i < ops.size(); ++i) cs.group_a.push_back(operand_ref(ops.at(i), ins));
    const auto kind = [&](std::size_t i) { return ins.operands[static_cast<std::size_t>(cs.group_a[i])].kind; };
    for (std::size_t i = 0; i < 3; ++i)
      if (kind(i) != OperandKind::tensor) ops.at(i).fail(std::string(roles[i]) + " must be a tensor operand");
    for (std::size_t i = 3; i < 5; ++i)
      if (kind(i) != OperandKind::list) ops.at(i).fail(std::string(roles[i]) + " must be a list operand");
    if (kind(5) != OperandKind::enumeration) ops.at(5).fail("perf_mode must be an enum operand");
    if (kind(6) != OperandKind::boolean) ops.at(6).fail("is_transpose must be a bool operand");
    return cs;
  }

  if (cs.kind == CheckKind::op_class) {
    auto refs = [&](const char* field, bool required, auto&& valid, const char* what) {
      std::vector<int> out;
      if (!required && !c.has(field)) return out;
      Node list = c.at(field);
      for (std::size_t i = 0; i < list.size(); ++i) {
        int r = operand_ref(list.at(i), ins);
        if (!valid(ins.operands[static_cast<std::size_t>(r)].kind)) list.at(i).fail("operand is not " + std::string(what));
        out.push_back(r);
      }
      return out;
    };
    auto is_enum = [](OperandKind t) { return t == OperandKind::enumeration; };
    auto is_tensor = [](OperandKind t) { return t == OperandKind::tensor || t == OperandKind::tensor_or_scalar; };
    auto is_bool = [](OperandKind t) { return t == OperandKind::boolean; };
    cs.ops = refs("ops", true, is_enum, "an enum");
    if (cs.ops.empty()) c.at("ops").fail("op_class names at least one enum operand");
    cs.integer_if_bitvec = refs("integer_if_bitvec", false, is_tensor, "a tensor");
    cs.float_if_arithmetic = refs("float_if_arithmetic", false, is_tensor, "a tensor");
    cs.false_if_bitvec = refs("false_if_bitvec", false, is_bool, "a bool");
    return cs;
  }

  if (cs.kind == CheckKind::element_count) {
    // One tensor operand's size: "min"/"max" elements per partition, optional
    // "multiple_of" and "partitions" (an exact partition count).
    cs.a = operand_ref(c.at("operand"), ins);
    const OperandKind kind = ins.operands[static_cast<std::size_t>(cs.a)].kind;
    if (kind != OperandKind::tensor) c.at("operand").fail("element_count names a tensor operand");
    constexpr int64_t kMost = int64_t{1} << 40;
    cs.min = c.at("min").integer(1, kMost);
    cs.max = c.at("max").integer(cs.min, kMost);
    if (c.has("multiple_of")) cs.multiple_of = c.at("multiple_of").integer(1, kMost);
    if (c.has("partitions")) cs.partitions = c.at("partitions").integer(1, 128);
    if (c.has("partitions_multiple_of")) cs.partitions_multiple_of = c.at("partitions_multiple_of").integer(1, 128);
    return cs;
  }

  if (cs.kind == CheckKind::rng_state_shape) {  // one tensor, and the engine enum when the size depends on it
    Node one = c.at("operands");
    if (one.size() != 1) one.fail("rng_state_shape names exactly one operand");
    cs.a = operand_ref(one.at(0), ins);
    if (ins.operands[static_cast<std::size_t>(cs.a)].kind != OperandKind::tensor) one.at(0).fail("not a tensor operand");
    if (c.has("engine")) {
      cs.engine = operand_ref(c.at("engine"), ins);
      const OperandSpec& e = ins.operands[static_cast<std::size_t>(cs.engine)];
      if (e.kind != OperandKind::enumeration || spec.enums[static_cast<std::size_t>(e.enum_id)].name != "engine")
        c.at("engine").fail("not an engine operand");
    }
    return cs;
  }
  if (cs.kind == CheckKind::dma_compute_sources) {  // {"operands": [dst, srcs], "scales": list, "unique_indices": bool}
    Node ops = c.at("operands");
    if (ops.size() != 2) ops.fail("a check names exactly two operands");
    cs.a = operand_ref(ops.at(0), ins);
    cs.b = operand_ref(ops.at(1), ins);
    if (ins.operands[static_cast<std::size_t>(cs.a)].kind != OperandKind::tensor) ops.at(0).fail("not a tensor operand");
    if (ins.operands[static_cast<std::size_t>(cs.b)].kind != OperandKind::tensor_list) ops.at(1).fail("not a tensor_list operand");
    cs.axes = operand_ref(c.at("scales"), ins);
    if (ins.operands[static_cast<std::size_t>(cs.axes)].kind != OperandKind::list) c.at("scales").fail("not a list operand");
    cs.count = operand_ref(c.at("unique_indices"), ins);
    if (ins.operands[static_cast<std::size_t>(cs.count)].kind != OperandKind::boolean) c.at("unique_indices").fail("not a bool operand");
    return cs;
  }
  Node ops = c.at("operands");
  if (ops.size() != 2) ops.fail("a check names exactly two operands");
  cs.a = operand_ref(ops.at(0), ins);
  cs.b = operand_ref(ops.at(1), ins);
  if (cs.kind == CheckKind::not_both_in) cs.memory = parse_memory(c.at("memory"));
  if (cs.kind == CheckKind::index_below) {
    if (ins.operands[cs.a].kind != OperandKind::integer) ops.at(0).fail("index_below needs an int operand first");
    cs.limit = c.at("limit").integer(1, int64_t{1} << 40);
  }
  if (cs.kind == CheckKind::allowed_pairs) {
    const EnumSpec& ea = enum_of(cs.a, ops.at(0));
    const EnumSpec& eb = enum_of(cs.b, ops.at(1));
    Node pairs = c.at("pairs");
    for (std::size_t i = 0; i < pairs.size(); ++i) {
      Node p = pairs.at(i);
      if (p.size() != 2) p.fail("a pair has two values");
      int x = ea.find(p.at(0).str()), y = eb.find(p.at(1).str());
      if (x < 0) p.at(0).fail("not a value of enum " + ea.name);
      if (y < 0) p.at(1).fail("not a value of enum " + eb.name);
      cs.pairs.emplace_back(x, y);
    }
  }
  if (cs.kind == CheckKind::pattern_covers) {
    const OperandSpec& p = ins.operands[static_cast<std::size_t>(cs.a)];
    if (p.kind != OperandKind::list || p.list_items.size() != 2 || p.list_items[1].name != "num" || p.list_items[1].min < 1)
      ops.at(0).fail("pattern_covers needs a list of [step, num] entries (num >= 1) first");
  }
  if (cs.kind == CheckKind::elements_times || cs.kind == CheckKind::int_at_most_elements) cs.factor = c.at("factor").integer(1, 1024);
  if (cs.kind == CheckKind::int_at_least_elements || cs.kind == CheckKind::int_at_most_elements) {
    if (ins.operands[static_cast<std::size_t>(cs.a)].kind != OperandKind::integer) ops.at(0).fail("needs an int operand first");
    if (ins.operands[static_cast<std::size_t>(cs.b)].kind != OperandKind::tensor) ops.at(1).fail("needs a tensor operand second");
    return cs;
  }
  if (cs.kind == CheckKind::reduced_by_axes) {
    Node axes = c.at("axes");
    cs.axes = operand_ref(axes, ins);
    const OperandSpec& ax = ins.operands[static_cast<std::size_t>(cs.axes)];
    if (ax.kind != OperandKind::list || ax.list_items.size() != 1 || ax.required) axes.fail("not an optional list of single integers");
  }
  if (cs.kind == CheckKind::transposed_by_axes || cs.kind == CheckKind::shuffle_quadrants) {
    const bool transpose = cs.kind == CheckKind::transposed_by_axes;
    Node list = c.at(transpose ? "axes" : "mask");
    cs.axes = operand_ref(list, ins);
    const OperandSpec& ax = ins.operands[static_cast<std::size_t>(cs.axes)];
    if (ax.kind != OperandKind::list || ax.list_items.size() != 1) list.fail("not a list of single integers");
    if (!transpose && (!ax.required || ax.list_min_count != 32 || ax.list_max_count != 32)) list.fail("the mask is a required list of 32 integers");
  }
  if (cs.kind == CheckKind::local_gather_layout) {
    for (const auto& [field, target] : {std::pair{"count", &cs.count}, std::pair{"width", &cs.width}}) {
      Node f = c.at(field);
      *target = operand_ref(f, ins);
      if (ins.operands[static_cast<std::size_t>(*target)].kind != OperandKind::integer) f.fail("not an int operand");
    }
  }
  bool needs_tensors = cs.kind != CheckKind::allowed_pairs && cs.kind != CheckKind::index_below;
  if (needs_tensors) {
    for (int i : cs.kind == CheckKind::pattern_covers ? std::vector<int>{cs.b} : std::vector<int>{cs.a, cs.b}) {
      auto kind = ins.operands[i].kind;
      if (kind != OperandKind::tensor && kind != OperandKind::tensor_or_scalar)
        ops.fail("operand " + ins.operands[i].name + " of check " + name + " is not a tensor");
    }
  }
  return cs;
}

}  // namespace nisa::spec_json
