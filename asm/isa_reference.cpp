// `nisa isa --markdown`: the instruction reference, generated from the spec
// alone (STYLE.md: one description drives everything, like riscv-opcodes'
// generated docs). Nothing here knows about any particular instruction.
#include "isa_reference.hpp"

#include <bit>
#include <cmath>
#include <sstream>

#include "float_text.hpp"

namespace nisa {

namespace {

// Concatenation without `"literal" + temporary`, which g++ 12 warns about
// falsely (-Wrestrict) at -O3.
template <class... Parts>
std::string cat(const Parts&... parts) {
  std::string s;
  ((s += parts), ...);
  return s;
}

std::string code(const std::string& s) { return cat("`", s, "`"); }

// Text inside a Markdown table cell: a '|' would end the cell.
std::string cell(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '|') out += '\\';
    out += c;
  }
  return out;
}

std::string join(const std::vector<std::string>& items, const std::string& sep) {
  std::string s;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i) s += sep;
    s += items[i];
  }
  return s;
}

std::string number_text(double v) {
  if (v == std::floor(v) && std::fabs(v) < 1e15) return std::to_string(static_cast<int64_t>(v));
  std::ostringstream os;
  os << v;
  return os.str();
}

std::string memories_text(const std::vector<Memory>& ms) {
  std::vector<std::string> names;
  for (Memory m : ms) names.emplace_back(memory_name(m));
  return join(names, ", ");
}

std::string enum_values_text(const Spec& spec, const OperandSpec& os) {
  const EnumSpec& e = spec.enums[static_cast<std::size_t>(os.enum_id)];
  std::vector<std::string> names;
  for (std::size_t v = 0; v < e.values.size(); ++v)
    if (os.allows_enum_value(static_cast<int>(v))) names.push_back(code(e.values[v].name));
  return join(names, ", ");
}

std::string default_text(const Spec& spec, const OperandSpec& os) {
  if (os.required) return "required";
  if (!os.default_value) return "optional (no default)";
  const DefaultValue& d = *os.default_value;
  switch (os.kind) {
    case OperandKind::enumeration:
      return cat("default ", code(spec.enums[static_cast<std::size_t>(os.enum_id)].values[static_cast<std::size_t>(d.enum_index)].name));
    case OperandKind::boolean: return cat("default ", code(d.boolean ? "true" : "false"));
    case OperandKind::integer: return cat("default ", code(number_text(d.number)));
    default: return cat("default ", code(float32_text(static_cast<float>(d.number))));
  }
}

// "1 to 4 entries `[step, num]`: step in [a, b], num in [c, d]".
std::string list_values_text(const OperandSpec& os) {
  std::vector<std::string> names, ranges;
  for (const ListItemSpec& li : os.list_items) {
    names.push_back(li.name);
    ranges.push_back(cat(li.name, " in [", std::to_string(li.min), ", ", std::to_string(li.max), "]"));
  }
  std::string count = os.list_min_count == os.list_max_count ? std::to_string(os.list_min_count)
                                                              : cat(std::to_string(os.list_min_count), " to ", std::to_string(os.list_max_count));
  std::string entry = os.list_items.size() == 1 ? "integers" : cat("entries ", code(cat("[", join(names, ", "), "]")));
  return cat(count, " ", entry, ": ", join(ranges, ", "));
}

std::string values_text(const Spec& spec, const InstructionSpec& is, const OperandSpec& os) {
  switch (os.kind) {
    case OperandKind::enumeration:
      return cat(spec.enums[static_cast<std::size_t>(os.enum_id)].name, ": ", enum_values_text(spec, os));
    case OperandKind::integer: return cat("[", number_text(static_cast<double>(os.int_min)), ", ", number_text(static_cast<double>(os.int_max)), "]");
    case OperandKind::boolean: return "`true`, `false`";
    case OperandKind::list: return list_values_text(os);
    default: break;
  }
  std::string s;
  if (os.only_scalar) s = cat("only ", code(float32_text(*os.only_scalar)));
  if (os.integer_if_dtype_of >= 0) s += cat(s.empty() ? "" : "; ", "float32, or int32 when the dtype of ", code(is.operands[static_cast<std::size_t>(os.integer_if_dtype_of)].name), " is an integer");
  if (os.integer_if_bitvec >= 0) s += cat(s.empty() ? "" : "; ", "float32, or int32 when ", code(is.operands[static_cast<std::size_t>(os.integer_if_bitvec)].name), " is a bitvec operator");
  return s;
}

std::string operand_name(const InstructionSpec& is, int i) { return code(is.operands[static_cast<std::size_t>(i)].name); }

std::string enum_value_name(const Spec& spec, const InstructionSpec& is, int operand, int value) {
  const OperandSpec& os = is.operands[static_cast<std::size_t>(operand)];
  if (os.kind == OperandKind::boolean) return code(value ? "true" : "false");
  return code(spec.enums[static_cast<std::size_t>(os.enum_id)].values[static_cast<std::size_t>(value)].name);
}

// One constraint of the spec, in words.
std::string check_text(const Spec& spec, const InstructionSpec& is, const CheckSpec& c) {
  std::string a = c.a >= 0 ? operand_name(is, c.a) : "", b = c.b >= 0 ? operand_name(is, c.b) : "";
  switch (c.kind) {
    case CheckKind::same_shape: return a + " and " + b + " have the same partition count and elements per partition (S1.4)";
    case CheckKind::same_partitions: return a + " and " + b + " cover the same partitions (same first partition and count)";
    case CheckKind::same_dtype: return a + " and " + b + " have the same dtype (when " + b + " is a tensor)";
    case CheckKind::same_dtype_if_tensors: return "when both are tensors, " + a + " and " + b + " have the same dtype";
    case CheckKind::same_dtype_if_mx: return a + " and " + b + " have the same dtype when either is an MX dtype (other dtypes are converted)";
    case CheckKind::column_of: return a + ", when a tensor, is one column `[P, 1]` with the partition count of " + b;
    case CheckKind::one_more_element: return a + " has exactly one more element per partition than " + b;
    case CheckKind::not_both_in: return cat(a, " and ", b, " are not both in ", memory_name(c.memory));
    case CheckKind::allowed_pairs: {
      std::vector<std::string> pairs;
      for (auto [x, y] : c.pairs) pairs.push_back(cat("(", enum_value_name(spec, is, c.a, x), ", ", enum_value_name(spec, is, c.b, y), ")"));
      return cat("(", a, ", ", b, ") is one of ", join(pairs, ", "));
    }
    case CheckKind::exclusive: {
      std::vector<std::string> ga, gb;
      for (int o : c.group_a) ga.push_back(operand_name(is, o));
      for (int o : c.group_b) gb.push_back(operand_name(is, o));
      return cat("none of ", join(ga, ", "), " is given together with any of ", join(gb, ", "));
    }
    case CheckKind::pattern_covers:
      return a + "'s `num`s multiply to the elements per partition of " + b;
    case CheckKind::partition_reduced:
      return cat(a, " has 1 partition and the elements per partition of ", b, " (", b, " reduced across its partitions)");
    case CheckKind::reduced_by_axes:
      return cat(a, " has the partitions of ", b, " and its elements per partition after reducing the free axes listed in ", operand_name(is, c.axes),
                 " (the last free axes, ending at the final one; negative axes count from the end; axis 0 never), or all free axes when ",
                 operand_name(is, c.axes), " is absent");
    case CheckKind::transposed_by_axes:
      return cat(a, " is ", b, " transposed: [1, 0] for a 2-D ", b, ", [2, 1, 0] for 3-D, [3, 1, 2, 0] for 4-D (", operand_name(is, c.axes),
                 ", when given, must be that one); ", b, "'s last axis (at most 128) becomes ", a, "'s partitions");
    case CheckKind::shuffle_quadrants:
      return cat(a, " and ", b, " have the same elements per partition and start at partition 0 (96 or 128 active partitions), 0 or 64 (64), ",
                 "or a multiple of 32 (32); every entry of ", operand_name(is, c.axes), " is 0..31 or 255 and names an existing partition of ", b);
    case CheckKind::local_gather_layout:
      return cat(b, " starts at a multiple of 16 and covers whole 16-partition GpSimd cores; ", operand_name(is, c.width), " is 1, 2, 4, 8, 16 or 32; ",
                 operand_name(is, c.count), " (default: all of a core's indices) is at most a core's indices and 4096; ", a, " holds ",
                 operand_name(is, c.count), " x ", operand_name(is, c.width), " elements per partition");
    case CheckKind::tensor_indirection: {
      std::vector<std::string> engines;
      for (int e : c.values) engines.push_back(code(std::string(engine_name(static_cast<Engine>(e)))));
      return cat("with an `indirect=IDX` view on ", a, " or ", b, " (NeuronCore-v4, on the ", join(engines, " or "), " engine): every index starts on a multiple of 32; an indirect ",
                 b, " starts on its index's partition; an indirect ", a, "'s index starts on ", b, "'s partition (", b, " in SBUF) or on ", b,
                 "'s index's (both indirect, ", b, " in PSUM); the Scalar engine does not scatter into PSUM (S1.7)");
    }
    case CheckKind::dma_compute_sources:
      return cat("every entry of ", b, " has the shape of ", a, "; ", operand_name(is, c.axes), " (if given) holds one scale per entry; ",
                 operand_name(is, c.count), " is true; with a vector_offset/scalar_offset view, ", b, " holds exactly 2 entries");
    case CheckKind::rng_state_shape:
      if (c.engine < 0) return cat(a, " is a [1, 1] seed");
      return cat(a, " holds the XORWOW state words of each lane: 6 per partition with ", operand_name(is, c.engine), "=gpsimd, 24 with vector");
    case CheckKind::mx_scale:
      return cat(a, " has a multiple of 32 partitions; ", b, " has its elements per partition and at least 32 x (P/32 - 1) + 4 partitions ",
                 "(the scales of quadrant q in partitions 32q..32q+3)");
    case CheckKind::mx_matmul:
      return cat(b, " has an even number of elements per partition, at most 128; ", a, " has that many partitions");
    case CheckKind::requires_operand: {
      if (c.if_given) return cat("if ", a, " is given, then ", b, " is given");
      std::vector<std::string> vals;
      for (int v : c.values) vals.push_back(enum_value_name(spec, is, c.a, v));
      std::string s = cat("if ", a, c.values_negated ? " is not " : " is ", join(vals, " or "), ", then ", b, " is given");
      if (c.then_not >= 0) s += cat(" and is not ", enum_value_name(spec, is, c.b, c.then_not));
      if (!c.then_is.empty()) {
        std::vector<std::string> then_vals;
        for (int v : c.then_is) then_vals.push_back(enum_value_name(spec, is, c.b, v));
        s += cat(" and is ", join(then_vals, " or "));
      }
      return s;
    }
    case CheckKind::element_count: {
      std::string s = cat(a, " has ", c.min == c.max ? number_text(static_cast<double>(c.min)) : cat(number_text(static_cast<double>(c.min)), " to ", number_text(static_cast<double>(c.max))),
                          " elements per partition");
      if (c.multiple_of > 1) s += cat(", a multiple of ", number_text(static_cast<double>(c.multiple_of)));
      if (c.partitions_multiple_of > 1) s += cat(", on a multiple of ", number_text(static_cast<double>(c.partitions_multiple_of)), " partitions");
      if (c.partitions > 0) s += cat(", on exactly ", number_text(static_cast<double>(c.partitions)), c.partitions == 1 ? " partition" : " partitions");
      return s;
    }
    case CheckKind::int_at_least_elements: return cat(a, " >= the elements per partition of ", b);
    case CheckKind::int_at_most_elements:
      return cat(a, " <= ", number_text(static_cast<double>(c.factor)), " x the elements per partition of ", b);
    case CheckKind::elements_times:
      return cat(a, " has ", number_text(static_cast<double>(c.factor)), " times as many elements per partition as ", b);
    case CheckKind::index_below:
      return cat("|", a, " + i| < ", number_text(static_cast<double>(c.limit)), " for every free index i of ", b);
    case CheckKind::op_class: {
      auto names = [&](const std::vector<int>& ops) {
        std::vector<std::string> n;
        for (int o : ops) n.push_back(operand_name(is, o));
        return join(n, ", ");
      };
      std::string s = c.ops.size() > 1 ? cat(names(c.ops), " are both bitvec or both arithmetic operators (bypass goes with either)")
                                       : cat(names(c.ops), " is a bitvec or an arithmetic operator");
      if (!c.integer_if_bitvec.empty()) s += cat("; with bitvec operators, the tensors among ", names(c.integer_if_bitvec), " have integer dtypes");
      if (!c.false_if_bitvec.empty()) s += cat(" and ", names(c.false_if_bitvec), " is false");
      if (!c.float_if_arithmetic.empty()) s += cat("; with arithmetic ones, the tensors among ", names(c.float_if_arithmetic), " have float dtypes");
      return s;
    }
    case CheckKind::on_engine: {
      std::vector<std::string> engines, ops;
      for (int e : c.values) engines.push_back(std::string(engine_name(static_cast<Engine>(e))));
      for (int o : c.group_a) ops.push_back(operand_name(is, o));
      std::vector<std::string> rules;
      if (c.memory_given) rules.push_back(cat(join(ops, " and "), " in ", memory_name(c.memory)));
      if (c.limit > 0) rules.push_back(cat(join(ops, " and "), " at most ", number_text(static_cast<double>(c.limit)), " partitions and ",
                                           number_text(static_cast<double>(c.limit)), " elements per partition"));
      if (c.then_not > 0) rules.push_back(cat("NeuronCore-v", std::to_string(c.then_not), " or later"));
      std::vector<std::string> refused;
      for (int o : c.group_b) refused.push_back(operand_name(is, o));
      if (!refused.empty()) rules.push_back(cat("no ", join(refused, ", "), " (each absent or its default)"));
      return cat("on the ", join(engines, " or "), " engine: ", join(rules, "; "));
    }
    case CheckKind::transpose_of:
      return cat(a, " is ", b, " transposed: its partitions are the elements per partition of ", b, " and the reverse");
    case CheckKind::matmul:
      return "NKI 0.6 nc_matmul rules: stationary [K, M] and moving [K, N] share K partitions (K <= 128 or tile_size's rows, M <= 128 or "
             "its columns), dst is [M, N] in one PSUM bank (NeuronCore-v2/v3: N <= 512 float32) or the whole PSUM (v4), "
             "tile_position a multiple of tile_size inside the 128x128 array (tile sizes 32, 64, 128), double_row: fp8 [K, 2, M] and [K, 2, N], "
             "no column tiling; dtype pairs as SEMANTICS.md says";
  }
  return "";
}

void write_encoding(std::ostringstream& out, const Spec& spec, const InstructionSpec& is) {
  out << "\n**Encoding** (fields in this order after the " << spec.opcode_bits << "-bit opcode " << is.opcode << "):\n\n";
  out << "| field | bits | coded as |\n|---|---:|---|\n";
  int fixed = spec.opcode_bits;
  out << "| opcode | " << spec.opcode_bits << " | " << is.opcode << " |\n";
  for (const FieldSpec& f : is.encoding) {
    const OperandSpec& os = is.operands[static_cast<std::size_t>(f.operand)];
    std::string how;
    int flags = os.optional_without_default() ? 1 : 0;
    if (flags) how = "1 presence bit, then ";
    switch (os.kind) {
      case OperandKind::tensor: how += "tensor index, then the view"; break;
      case OperandKind::tensor_list: how += "view count, then each view as a tensor operand"; break;
      case OperandKind::tensor_or_scalar: how += "1 kind bit, then tensor index and view, or a 32-bit scalar"; ++flags; break;
      case OperandKind::scalar: how += os.integer_if_dtype_of >= 0 ? "float32 or int32 bits" : "float32 bits"; break;
      case OperandKind::enumeration: how += "value index"; break;
      case OperandKind::boolean: how += "bit"; break;
      case OperandKind::integer: how += "two's complement"; break;
      case OperandKind::string: how += "byte count, then each byte (8 bits)"; break;
      case OperandKind::reg: how += "register index"; break;
      case OperandKind::reg_or_int: how += "1 bit (1 = register), then the register index or the integer in two's complement"; ++flags; break;
      case OperandKind::list:
        how += cat("entry count (", std::to_string(f.count_bits), " bits), then each integer of each entry in two's complement (",
                   std::to_string(f.bits), " bits)");
        break;
    }
    const bool counted = os.kind == OperandKind::list || os.kind == OperandKind::tensor_list;
    const int fixed_bits = counted ? f.count_bits : f.bits;
    const std::string bits_text = counted ? cat(std::to_string(f.bits), os.kind == OperandKind::list ? " per integer" : " per tensor index",
                                                ", after a ", std::to_string(f.count_bits), "-bit count")
                                          : std::to_string(f.bits);
    out << "| " << code(os.name) << " | " << bits_text << (flags ? " + " + std::to_string(flags) : "") << " | " << how << " |\n";
    fixed += fixed_bits + flags;
  }
  out << "\nFixed bits: " << fixed << " (opcode, fields and flag bits; tensor-or-scalar operands in tensor form, whose scalar "
      << "form takes 32 bits instead of the index; lists counted empty). Each tensor view adds 1 bit when it is the whole tensor; otherwise per dimension "
      << "1 bit (whole dimension) or 1 + " << spec.slice_encoding.start_bits << " + " << spec.slice_encoding.count_bits
      << " + 1 (+ " << spec.slice_encoding.step_bits << " with a step) bits, plus 1 bit (slices or access pattern); an access pattern "
      << "takes " << spec.pattern_encoding.offset_bits << " + " << spec.pattern_encoding.dims_bits << " bits and "
      << spec.pattern_encoding.step_bits << " + " << spec.pattern_encoding.num_bits << " per [step, num] entry.\n";
}

void write_cost(std::ostringstream& out, const InstructionSpec& is) {
  const CostSpec& c = is.cost;
  out << "\n**Cost** (cycles, S6): " << code(c.cycles) << (c.estimate ? " — *estimate* (no public figure)" : "") << "\n";
  for (const CostCase& cc : c.cases) {
    std::vector<std::string> names;
    for (int o : cc.operands) names.push_back(operand_name(is, o));
    out << "- when " << join(names, " and ") << " are all in " << memory_name(cc.memory) << ": " << code(cc.cycles) << "\n";
  }
  for (const auto& [o, extra] : c.extra_if_present) out << "- plus " << code(extra) << " when " << operand_name(is, o) << " is given\n";
}

void write_instruction(std::ostringstream& out, const Spec& spec, const InstructionSpec& is) {
  out << "\n### " << is.name << "\n\n";
  out << "Engine: " << engine_name(is.engine) << (is.sequencer != Sequencer::none ? " (an engine-sequencer instruction: SEMANTICS S17)" : "")
      << (is.engine_operand >= 0 ? cat(" (or the one ", operand_name(is, is.engine_operand), " selects)") : std::string())
      << " · first arch: " << is.first_arch << " (NeuronCore-v" << is.first_arch_version
      << ") · opcode " << is.opcode << "\n\n"
      << is.description << "\n\n";
  out << "| operand | kind | required / default | memories | dtypes | values | description |\n|---|---|---|---|---|---|---|\n";
  for (const OperandSpec& os : is.operands)
    out << "| " << code(os.name) << " | " << operand_kind_name(os.kind) << " | " << default_text(spec, os) << " | "
        << memories_text(os.memories) << " | " << os.dtypes_text << " | " << values_text(spec, is, os) << " | "
        << (os.since_nki > 0 ? "(NKI " + spec.nki_versions[static_cast<std::size_t>(os.since_nki)] + " and later) " : std::string())
        << cell(os.description) << " |\n";
  if (!is.checks.empty()) {
    out << "\n**Constraints:**\n\n";
    for (const CheckSpec& c : is.checks) out << "- " << check_text(spec, is, c) << "\n";
  }
  write_encoding(out, spec, is);
  write_cost(out, is);
}

void write_tables(std::ostringstream& out, const Spec& spec) {
  out << "\n## Enums\n\n| enum | index: value (aliases) |\n|---|---|\n";
  for (const EnumSpec& e : spec.enums) {
    std::vector<std::string> vals;
    for (std::size_t i = 0; i < e.values.size(); ++i) {
      std::string v = cat(std::to_string(i), ": ", code(e.values[i].name));
      if (!e.values[i].aliases.empty()) v += cat(" (", join(e.values[i].aliases, ", "), ")");
      if (e.values[i].op_class == OpClass::bitvec) v += " [bitvec]";
      if (e.values[i].unary) v += " [unary]";
      vals.push_back(v);
    }
    out << "| " << e.name << " | " << join(vals, ", ") << " |\n";
  }
  out << "\n## Dtypes\n\n| dtype | bytes | aliases |\n|---|---:|---|\n";
  for (const DtypeSpec& d : spec.dtypes) out << "| " << code(d.name) << " | " << d.size << " | " << join(d.aliases, ", ") << " |\n";
  out << "\n## Archs\n\n| arch | NeuronCore | SBUF bytes/partition | PSUM bytes/partition | PSUM bank bytes |";
  for (int e = 0; e < kEngineCount; ++e) out << " " << engine_name(static_cast<Engine>(e)) << " GHz |";
  out << "\n|---|---|---:|---:|---:|";
  for (int e = 0; e < kEngineCount; ++e) out << "---:|";
  out << "\n";
  for (const ArchSpec& a : spec.archs) {
    out << "| " << a.name << (spec.archs[static_cast<std::size_t>(spec.default_arch)].name == a.name ? " (default)" : "") << " | "
        << a.neuroncore << " | " << a.sbuf_partition_bytes << " | " << a.psum_partition_bytes << " | " << a.psum_bank_bytes << " |";
    for (double ghz : a.clock_ghz) out << " " << number_text(ghz) << " |";
    out << "\n";
  }
  out << "\nNKI versions (`.nki`, LANGUAGE.md 2.1):";
  for (std::size_t v = 0; v < spec.nki_versions.size(); ++v)
    out << (v ? ", " : " ") << spec.nki_versions[v] << (static_cast<int>(v) == spec.default_nki ? " (default)" : "");
  out << ".\n";
  out << "\n## Engines\n\n| engine | memories | partition alignment (S1.5) |\n|---|---|---|\n";
  for (const EngineSpec& e : spec.engines)
    out << "| " << engine_name(e.engine) << " | " << memories_text(e.memories) << " | " << (e.partition_alignment ? "yes" : "no") << " |\n";
  out << "\n## Cost constants\n\n| name | value |\n|---|---:|\n";
  for (const auto& [name, value] : spec.cost_constants) out << "| " << name << " | " << number_text(value) << " |\n";
  out << "\n## Binary encoding\n\nOpcode: " << spec.opcode_bits << " bits. Tensor slices: start " << spec.slice_encoding.start_bits
      << " bits, count " << spec.slice_encoding.count_bits << " bits, step " << spec.slice_encoding.step_bits
      << " bits. Operands follow each instruction's field order above; see docs/NBIN.md for the whole file layout.\n";
}

}  // namespace

std::string isa_reference_markdown(const Spec& spec) {
  std::ostringstream out;
  out << "<!-- Generated by `nisa isa --markdown` from the ISA spec " << spec_id_hex(spec.id) << ". Do not edit by hand. -->\n";
  out << "# " << spec.name << "\n\n";
  out << "Spec id " << code(spec_id_hex(spec.id)) << " (stamped into every .nbin). " << spec.instructions.size()
      << " instructions; " << spec.partitions << " partitions.\n\n";
  out << "| instruction | opcode | engine | first arch | description |\n|---|---:|---|---|---|\n";
  for (const InstructionSpec& is : spec.instructions)
    out << "| [" << is.name << "](#" << is.name << ") | " << is.opcode << " | " << engine_name(is.engine) << " | " << is.first_arch
        << " | " << cell(is.description) << " |\n";
  if (!spec.nki_not_modeled.empty()) {
    std::vector<std::string> names;
    for (const std::string& n : spec.nki_not_modeled) names.push_back(code(n));
    out << "\nNKI 0.6 `nki.isa` instructions not modeled yet (the assembler names them as such): " << join(names, ", ") << ".\n";
  }
  out << "\n## Instructions\n";
  for (const InstructionSpec& is : spec.instructions) write_instruction(out, spec, is);
  write_tables(out, spec);
  return out.str();
}

}  // namespace nisa
