// Loads isa-spec/isa.json into the structs of spec.hpp and validates it the
// way riscv-opcodes validates its tables: every defect is refused with the JSON
// path that holds it (STYLE.md).
#include "spec.hpp"
#include "spec_json_node.hpp"

#include <algorithm>
#include <bit>
#include <limits>
#include <set>

#include <nlohmann/json.hpp>

namespace nisa {

Memory spec_json::parse_memory(const Node& n) {
  std::string s = n.str();
  if (s == "hbm") return Memory::hbm;
  if (s == "sbuf") return Memory::sbuf;
  if (s == "psum") return Memory::psum;
  n.fail("unknown memory \"" + s + "\" (hbm, sbuf, psum)");
}

namespace {

using spec_json::Node;
using spec_json::parse_memory;
using spec_json::json;
using spec_json::operand_ref;
using spec_json::parse_check;
using spec_json::parse_cost;
using spec_json::parse_timeline;
using spec_json::TimelineNames;


Engine parse_engine(const Node& n) {
  std::string s = n.str();
  for (int e = 0; e < kEngineCount; ++e)
    if (engine_name(static_cast<Engine>(e)) == s) return static_cast<Engine>(e);
  n.fail("unknown engine \"" + s + "\" (tensor, vector, scalar, gpsimd, dma)");
}

OperandKind parse_kind(const Node& n) {
  std::string s = n.str();
  for (auto k : {OperandKind::tensor, OperandKind::scalar, OperandKind::tensor_or_scalar,
                 OperandKind::enumeration, OperandKind::boolean, OperandKind::integer, OperandKind::list, OperandKind::tensor_list,
                 OperandKind::string, OperandKind::reg, OperandKind::reg_or_int})
    if (operand_kind_name(k) == s) return k;
  n.fail("unknown operand kind \"" + s + "\" (tensor, scalar, tensor_or_scalar, enum, bool, int, list, tensor_list, string)");
}

std::vector<Memory> parse_memories(const Node& n) {
  std::vector<Memory> out;
  for (std::size_t i = 0; i < n.size(); ++i) out.push_back(parse_memory(n.at(i)));
  if (out.empty()) n.fail("empty list of memories");
  return out;
}

// Scalar values in the spec: a number or a named constant.
float parse_scalar(const Node& n) {
  if (n.j.is_string()) {
    std::string s = n.str();
    if (s == "fp32.min") return std::numeric_limits<float>::lowest();
    if (s == "fp32.max") return std::numeric_limits<float>::max();
    if (s == "inf") return std::numeric_limits<float>::infinity();
    if (s == "-inf") return -std::numeric_limits<float>::infinity();
    n.fail("unknown named constant \"" + s + "\"");
  }
  return static_cast<float>(n.number());
}

void parse_archs(const Node& root, Spec& spec) {
  Node archs = root.at("archs");
  for (std::size_t i = 0; i < archs.size(); ++i) {
    Node a = archs.at(i);
    ArchSpec arch;
    arch.name = a.at("name").str();
    if (spec.find_arch(arch.name) >= 0) a.at("name").fail("duplicate arch \"" + arch.name + "\"");
    arch.version = static_cast<int>(a.at("version").integer(1, 99));
    arch.neuroncore = a.at("neuroncore").str();
    arch.sbuf_partition_bytes = a.at("sbuf_partition_bytes").integer(1, int64_t{1} << 30);
    arch.psum_partition_bytes = a.at("psum_partition_bytes").integer(1, int64_t{1} << 30);
    arch.psum_bank_bytes = a.at("psum_bank_bytes").integer(1, arch.psum_partition_bytes);
    arch.max_cores = a.has("max_cores") ? static_cast<int>(a.at("max_cores").integer(1, 8)) : 1;
    Node clocks = a.at("clock_ghz");
    for (int e = 0; e < kEngineCount; ++e) {
      Node c = clocks.at(std::string(engine_name(static_cast<Engine>(e))));
      arch.clock_ghz[e] = c.number();
      if (!(arch.clock_ghz[e] > 0)) c.fail("clock must be positive");
    }
    spec.archs.push_back(std::move(arch));
  }
  if (spec.archs.empty()) archs.fail("no archs");
  if (spec.archs.size() > 255) archs.fail("more than 255 archs");
  Node d = root.at("default_arch");
  spec.default_arch = spec.find_arch(d.str());
  if (spec.default_arch < 0) d.fail("unknown arch \"" + d.str() + "\"");
}

// "nki_versions" oldest first, and the default of a program without `.nki`.
void parse_nki_versions(const Node& root, Spec& spec) {
  Node versions = root.at("nki_versions");
  for (std::size_t i = 0; i < versions.size(); ++i) {
    Node v = versions.at(i);
    if (spec.find_nki_version(v.str()) >= 0) v.fail("duplicate NKI version \"" + v.str() + "\"");
    spec.nki_versions.push_back(v.str());
  }
  if (spec.nki_versions.empty() || spec.nki_versions.size() > 255) versions.fail("1 to 255 NKI versions");
  Node d = root.at("default_nki_version");
  spec.default_nki = spec.find_nki_version(d.str());
  if (spec.default_nki < 0) d.fail("unknown NKI version \"" + d.str() + "\"");
}

void parse_engines(const Node& root, Spec& spec) {
  Node engines = root.at("engines");
  spec.engines.resize(kEngineCount);
  std::vector<bool> seen(kEngineCount, false);
  for (std::size_t i = 0; i < engines.size(); ++i) {
    Node e = engines.at(i);
    EngineSpec es;
    es.engine = parse_engine(e.at("name"));
    if (seen[static_cast<int>(es.engine)]) e.at("name").fail("duplicate engine");
    seen[static_cast<int>(es.engine)] = true;
    es.memories = parse_memories(e.at("memories"));
    es.partition_alignment = e.at("partition_alignment").boolean();
    spec.engines[static_cast<int>(es.engine)] = std::move(es);
  }
  for (int e = 0; e < kEngineCount; ++e)
    if (!seen[e]) engines.fail("engine \"" + std::string(engine_name(static_cast<Engine>(e))) + "\" is not described");
}

void parse_dtypes(const Node& root, Spec& spec) {
  Node dtypes = root.at("dtypes");
  if (dtypes.size() != kDtypeCount)
    dtypes.fail("expected " + std::to_string(kDtypeCount) + " dtypes, found " + std::to_string(dtypes.size()));
  spec.dtypes.resize(kDtypeCount);
  std::vector<bool> seen(kDtypeCount, false);
  std::set<std::string> names;
  for (std::size_t i = 0; i < dtypes.size(); ++i) {
    Node d = dtypes.at(i);
    std::string name = d.at("name").str();
    auto t = dtype_from_name(name);
    if (!t) d.at("name").fail("unknown dtype \"" + name + "\"");
    int idx = static_cast<int>(*t);
    if (seen[idx]) d.at("name").fail("duplicate dtype \"" + name + "\"");
    seen[idx] = true;
    DtypeSpec ds{*t, name, {}, 0};
    ds.size = static_cast<std::size_t>(d.at("size").integer(1, 8));
    if (ds.size != dtype_size(*t))
      d.at("size").fail("dtype " + name + " has size " + std::to_string(dtype_size(*t)) + " in the model");
    if (d.has("aliases")) ds.aliases = d.at("aliases").strings();
    for (const auto& n : ds.aliases)
      if (!names.insert(n).second) d.at("aliases").fail("name \"" + n + "\" used twice");
    if (!names.insert(name).second) d.at("name").fail("name \"" + name + "\" used twice");
    spec.dtypes[idx] = std::move(ds);
  }
}

void parse_enums(const Node& root, Spec& spec) {
  Node enums = root.at("enums");
  if (!enums.j.is_object()) enums.fail("expected an object");
  for (auto it = enums.j.begin(); it != enums.j.end(); ++it) {
    Node e{it.value(), enums.path + "/" + it.key()};
    EnumSpec es;
    es.name = it.key();
    std::set<std::string> names;
    for (std::size_t i = 0; i < e.size(); ++i) {
      Node v = e.at(i);
      EnumValueSpec vs;
      vs.name = v.at("name").str();
      if (v.has("aliases")) vs.aliases = v.at("aliases").strings();
      if (v.has("class")) {
        const std::string cls = v.at("class").str();
        if (cls == "bitvec") vs.op_class = OpClass::bitvec;
        else if (cls == "none") vs.op_class = OpClass::none;
        else if (cls != "arithmetic") v.at("class").fail("unknown operator class \"" + cls + "\" (arithmetic, bitvec, none)");
      }
      if (v.has("unary")) vs.unary = v.at("unary").boolean();
      if (!names.insert(vs.name).second) v.at("name").fail("name \"" + vs.name + "\" used twice");
      for (const auto& a : vs.aliases)
        if (!names.insert(a).second) v.at("aliases").fail("name \"" + a + "\" used twice");
      es.values.push_back(std::move(vs));
    }
    if (es.values.empty()) e.fail("empty enum");
    if (es.values.size() > 64) e.fail("more than 64 values");
    spec.enums.push_back(std::move(es));
  }
}

uint32_t parse_dtype_mask(const Node& n, const Spec& spec, std::string& text) {
  uint32_t mask = 0;
  for (std::size_t i = 0; i < n.size(); ++i) {
    Node d = n.at(i);
    std::string s = d.str();
    if (!text.empty()) text += ", ";
    text += s;
    if (s == "any" || s == "float" || s == "int" || s == "mx") {
      // any = float + int; the MX types (S13) only where a list says "mx" or names them.
      for (int t = 0; t < kDtypeCount; ++t) {
        const auto dt = static_cast<Dtype>(t);
        const bool in = s == "any" ? !dtype_is_mx(dt) : s == "float" ? dtype_is_float(dt) : s == "int" ? dtype_is_int(dt) : dtype_is_mx(dt);
        if (in) mask |= 1u << t;
      }
    } else if (auto t = spec.find_dtype(s)) {
      mask |= 1u << static_cast<int>(*t);
    } else {
      d.fail("unknown dtype \"" + s + "\" (a dtype name, any, float, int or mx)");
    }
  }
  if (mask == 0) n.fail("empty list of dtypes");
  return mask;
}

// "items": [{"name", "min", "max"}, ...] (one per integer of an entry),
// "min_count", "max_count": LANGUAGE.md 2.4's bracketed list parameters.
void parse_list_operand(const Node& o, OperandSpec& op) {
  Node items = o.at("items");
  if (items.size() < 1 || items.size() > 8) items.fail("a list entry has 1 to 8 items");
  for (std::size_t i = 0; i < items.size(); ++i) {
    Node it = items.at(i);
    ListItemSpec li;
    li.name = it.at("name").str();
    li.min = it.at("min").integer(INT32_MIN, INT32_MAX);
    li.max = it.at("max").integer(li.min, INT32_MAX);
    op.list_items.push_back(std::move(li));
  }
  op.list_min_count = o.at("min_count").integer(0, 255);
  op.list_max_count = o.at("max_count").integer(std::max<int64_t>(op.list_min_count, 1), 255);
}

OperandSpec parse_operand(const Node& o, const Spec& spec, const InstructionSpec& ins) {
  OperandSpec op;
  op.name = o.at("name").str();
  if (ins.find_operand(op.name) >= 0) o.at("name").fail("duplicate operand \"" + op.name + "\"");
  op.kind = parse_kind(o.at("kind"));
  if (o.has("required")) op.required = o.at("required").boolean();
  op.description = o.has("description") ? o.at("description").str() : "";
  if (o.has("since")) {
    Node since = o.at("since");
    op.since_nki = spec.find_nki_version(since.str());
    if (op.since_nki < 0) since.fail("unknown NKI version \"" + since.str() + "\"");
    if (op.required) since.fail("an operand added by a later NKI version must be optional");
  }
  bool tensorish = op.kind == OperandKind::tensor || op.kind == OperandKind::tensor_or_scalar || op.kind == OperandKind::tensor_list;
  if (tensorish) {
    op.memories = parse_memories(o.at("memories"));
    op.dtype_mask = parse_dtype_mask(o.at("dtypes"), spec, op.dtypes_text);
    if (o.has("indirect")) op.indirect = o.at("indirect").boolean();
    if (o.has("tensor_indirect")) op.tensor_indirect = o.at("tensor_indirect").boolean();
  }
  if (op.kind == OperandKind::enumeration) {
    Node en = o.at("enum");
    op.enum_id = spec.find_enum(en.str());
    if (op.enum_id < 0) en.fail("unknown enum \"" + en.str() + "\"");
    const EnumSpec& es = spec.enums[op.enum_id];
    if (o.has("values")) {
      Node vals = o.at("values");
      for (std::size_t i = 0; i < vals.size(); ++i) {
        int v = es.find(vals.at(i).str());
        if (v < 0) vals.at(i).fail("not a value of enum " + es.name);
        op.enum_allowed_mask |= uint64_t{1} << v;
      }
    } else {
      op.enum_allowed_mask = es.values.size() == 64 ? ~uint64_t{0} : (uint64_t{1} << es.values.size()) - 1;
    }
  }
  if (op.kind == OperandKind::integer || op.kind == OperandKind::reg_or_int) {
    op.int_min = o.at("min").integer(INT64_MIN / 2, INT64_MAX / 2);
    op.int_max = o.at("max").integer(op.int_min, INT64_MAX / 2);
  }
  if (op.kind == OperandKind::list) parse_list_operand(o, op);
  if (op.kind == OperandKind::tensor_list) {
    op.list_min_count = o.at("min_count").integer(1, 255);
    op.list_max_count = o.at("max_count").integer(op.list_min_count, 255);
  }
  if (op.kind == OperandKind::scalar && o.has("values")) {
    Node vals = o.at("values");
    if (vals.size() != 1) vals.fail("a scalar may be restricted to one value only");
    op.only_scalar = parse_scalar(vals.at(0));
  }
  if (o.has("integer_if_dtype_of")) {
    Node r = o.at("integer_if_dtype_of");
    op.integer_if_dtype_of = ins.find_operand(r.str());
    if (op.integer_if_dtype_of < 0) r.fail("no earlier operand \"" + r.str() + "\"");
  }
  if (o.has("integer_if_bitvec")) {
    Node r = o.at("integer_if_bitvec");
    op.integer_if_bitvec = ins.find_operand(r.str());
    if (op.integer_if_bitvec < 0) r.fail("no earlier operand \"" + r.str() + "\"");
    const OperandSpec& ref = ins.operands[static_cast<std::size_t>(op.integer_if_bitvec)];
    if (ref.kind != OperandKind::enumeration) r.fail("operand \"" + r.str() + "\" is not an enum");
    const EnumSpec& es = spec.enums[static_cast<std::size_t>(ref.enum_id)];
    for (std::size_t v = 0; v < es.values.size(); ++v)
      if (es.values[v].op_class == OpClass::bitvec) op.bitvec_mask |= uint64_t{1} << v;
  }
  if (o.has("default")) {
    Node d = o.at("default");
    if (op.required) d.fail("a required operand has no default");
    DefaultValue dv;
    switch (op.kind) {
      case OperandKind::tensor:
        d.fail("a tensor operand has no default");
      case OperandKind::list:
      case OperandKind::tensor_list:
        d.fail("a list operand has no default (leave it optional)");
      case OperandKind::string:
        d.fail("a string operand has no default");
      case OperandKind::scalar:
      case OperandKind::tensor_or_scalar:
        dv.number = parse_scalar(d);
        break;
      case OperandKind::integer:
      case OperandKind::reg_or_int:  // a default is the integer form
        dv.number = static_cast<double>(d.integer(op.int_min, op.int_max));
        break;
      case OperandKind::reg:
        d.fail("a register operand has no default");
      case OperandKind::boolean:
        dv.boolean = d.boolean();
        break;
      case OperandKind::enumeration:
        dv.enum_index = spec.enums[op.enum_id].find(d.str());
        if (dv.enum_index < 0) d.fail("not a value of enum " + spec.enums[op.enum_id].name);
        if (!op.allows_enum_value(dv.enum_index)) d.fail("default is not among the allowed values");
        break;
    }
    if (op.only_scalar && std::bit_cast<uint32_t>(static_cast<float>(dv.number)) != std::bit_cast<uint32_t>(*op.only_scalar))
      d.fail("default differs from the only allowed value");
    op.default_value = dv;
  }
  return op;
}

int bits_needed(uint64_t values) {  // bits to hold indices 0..values-1
  int b = 0;
  while ((uint64_t{1} << b) < values) ++b;
  return b;
}

// A two's complement field of `bits` must hold [lo, hi].
void require_twos_complement_range(const Node& where, int bits, int64_t lo, int64_t hi, const std::string& what) {
  const int64_t min = bits >= 63 ? INT64_MIN : -(int64_t{1} << (bits - 1));
  const int64_t max = bits >= 63 ? INT64_MAX : (int64_t{1} << (bits - 1)) - 1;
  if (lo < min || hi > max)
    where.fail(std::to_string(bits) + " bits cannot hold the range [" + std::to_string(lo) + ", " + std::to_string(hi) + "] of " + what);
}

void parse_encoding(const Node& fields, const Spec& spec, InstructionSpec& ins) {
  std::vector<bool> seen(ins.operands.size(), false);
  for (std::size_t i = 0; i < fields.size(); ++i) {
    Node f = fields.at(i);
    FieldSpec fs;
    fs.operand = operand_ref(f.at("field"), ins);
    if (seen[fs.operand]) f.at("field").fail("operand encoded twice");
    seen[fs.operand] = true;
    Node bits = f.at("bits");
    fs.bits = static_cast<int>(bits.integer(1, 64));
    const OperandSpec& op = ins.operands[fs.operand];
    if (op.kind == OperandKind::list || op.kind == OperandKind::tensor_list) {
      Node cb = f.at("count_bits");
      fs.count_bits = static_cast<int>(cb.integer(1, 8));
      if (op.list_max_count >= (int64_t{1} << fs.count_bits))
        cb.fail(std::to_string(fs.count_bits) + " bits cannot hold the count " + std::to_string(op.list_max_count) + " of " + op.name);
    } else if (f.has("count_bits")) {
      f.at("count_bits").fail("only a list field has a count");
    }
    switch (op.kind) {
      case OperandKind::tensor:
      case OperandKind::tensor_or_scalar:
      case OperandKind::tensor_list:
        if (fs.bits > 24) bits.fail("a tensor index field is at most 24 bits");
        break;
      case OperandKind::scalar:
        if (fs.bits != 32) bits.fail("a scalar field is 32 bits (float32 or int32)");
        break;
      case OperandKind::boolean:
        if (fs.bits != 1) bits.fail("a bool field is 1 bit");
        break;
      case OperandKind::enumeration: {
        int need = bits_needed(spec.enums[op.enum_id].values.size());
        if (fs.bits < need)
          bits.fail(std::to_string(fs.bits) + " bits cannot hold the " + std::to_string(spec.enums[op.enum_id].values.size()) +
                    " values of enum " + spec.enums[op.enum_id].name);
        break;
      }
      case OperandKind::integer:
        require_twos_complement_range(bits, fs.bits, op.int_min, op.int_max, op.name);
        break;
      case OperandKind::list:
        for (const ListItemSpec& li : op.list_items) require_twos_complement_range(bits, fs.bits, li.min, li.max, op.name + " " + li.name);
        break;
      case OperandKind::string:  // the byte count, then the bytes
        if (fs.bits > 32) bits.fail("a string length field is at most 32 bits");
        break;
      case OperandKind::reg:
        if ((int64_t{1} << std::min(fs.bits, 62)) < kMaxRegisters) bits.fail("a register field must hold the indices of " + std::to_string(kMaxRegisters) + " registers");
        break;
      case OperandKind::reg_or_int:  // 1 bit 'register', then the index or the integer
        require_twos_complement_range(bits, fs.bits, op.int_min, op.int_max, op.name);
        if ((int64_t{1} << std::min(fs.bits, 62)) < kMaxRegisters) bits.fail("a register field must hold the indices of " + std::to_string(kMaxRegisters) + " registers");
        break;
    }
    ins.encoding.push_back(fs);
  }
  for (std::size_t i = 0; i < seen.size(); ++i)
    if (!seen[i]) fields.fail("operand " + ins.operands[i].name + " has no encoding field");
}

// "engine_operand": the enum operand whose value names the engine that runs
// the instruction (NKI's engine=); "unknown" keeps the instruction's engine.
void parse_engine_operand(const Node& n, const Spec& spec, InstructionSpec& ins) {
  ins.engine_operand = operand_ref(n, ins);
  const OperandSpec& op = ins.operands[static_cast<std::size_t>(ins.engine_operand)];
  if (op.kind != OperandKind::enumeration) n.fail("operand " + op.name + " is not an enum");
  const EnumSpec& es = spec.enums[static_cast<std::size_t>(op.enum_id)];
  ins.engine_of_value.assign(es.values.size(), -1);
  for (std::size_t v = 0; v < es.values.size(); ++v) {
    if (!op.allows_enum_value(static_cast<int>(v)) || es.values[v].name == "unknown") continue;
    bool found = false;
    for (int e = 0; e < kEngineCount; ++e)
      if (engine_name(static_cast<Engine>(e)) == es.values[v].name) {
        ins.engine_of_value[v] = e;
        found = true;
      }
    if (!found) n.fail("value " + es.values[v].name + " of operand " + op.name + " names no engine");
  }
}

void parse_instructions(const Node& root, Spec& spec, const TimelineNames& timeline) {
  Node list = root.at("instructions");
  std::set<int> opcodes;
  for (std::size_t i = 0; i < list.size(); ++i) {
    Node n = list.at(i);
    InstructionSpec ins;
    ins.name = n.at("name").str();
    if (spec.find_instruction(ins.name) >= 0) n.at("name").fail("duplicate instruction \"" + ins.name + "\"");
    Node opc = n.at("opcode");
    ins.opcode = static_cast<int>(opc.integer(0, (int64_t{1} << spec.opcode_bits) - 1));
    if (!opcodes.insert(ins.opcode).second) opc.fail("opcode " + std::to_string(ins.opcode) + " used twice");
    ins.engine = parse_engine(n.at("engine"));
    Node arch = n.at("arch");
    int a = spec.find_arch(arch.str());
    if (a < 0) arch.fail("unknown arch \"" + arch.str() + "\"");
    ins.first_arch = arch.str();
    ins.first_arch_version = spec.archs[a].version;
    ins.description = n.at("description").str();
    Node ops = n.at("operands");
    for (std::size_t k = 0; k < ops.size(); ++k) ins.operands.push_back(parse_operand(ops.at(k), spec, ins));
    for (std::size_t k = 0; k < ins.operands.size(); ++k) {
      const OperandSpec& op = ins.operands[k];
      for (Memory m : op.memories)
        if (!spec.engine(ins.engine).memories.empty()) {
          bool ok = false;
          for (Memory em : spec.engine(ins.engine).memories) ok = ok || em == m;
          if (!ok)
            ops.at(k).at("memories").fail("engine " + std::string(engine_name(ins.engine)) + " cannot access " +
                                          std::string(memory_name(m)));
        }
    }
    if (n.has("engine_operand")) parse_engine_operand(n.at("engine_operand"), spec, ins);
    if (n.has("writes_whole_outputs")) ins.writes_whole_outputs = n.at("writes_whole_outputs").boolean();
    if (n.has("partitions_independent")) ins.partitions_independent = n.at("partitions_independent").boolean();
    if (n.has("cross_core")) {
      Node c = n.at("cross_core");
      const std::string kind = c.str();
      if (kind == "pair") ins.cross_core = CrossCore::pair;
      else if (kind == "barrier") ins.cross_core = CrossCore::barrier;
      else c.fail("cross_core is \"pair\" or \"barrier\"");
    }
    if (n.has("sequencer")) {
      Node q = n.at("sequencer");
      const std::string kind = q.str();
      if (kind == "register") ins.sequencer = Sequencer::reg;
      else if (kind == "fori_loop") ins.sequencer = Sequencer::fori_loop;
      else if (kind == "while_loop") ins.sequencer = Sequencer::while_loop;
      else if (kind == "end_loop") ins.sequencer = Sequencer::end_loop;
      else q.fail("sequencer is \"register\", \"fori_loop\", \"while_loop\" or \"end_loop\"");
    }
    Node checks = n.at("constraints");
    for (std::size_t k = 0; k < checks.size(); ++k) ins.checks.push_back(parse_check(checks.at(k), spec, ins));
    parse_encoding(n.at("encoding"), spec, ins);
    ins.cost = parse_cost(n.at("cost"), spec, ins, timeline);
    spec.instructions.push_back(std::move(ins));
  }
  if (spec.instructions.empty()) list.fail("no instructions");
}

// Optional list of nki.isa names not modeled yet. A name may not also be a
// modeled instruction (the list goes stale when one is added: refuse it).
void parse_nki_not_modeled(const Node& root, Spec& spec) {
  if (!root.has("nki_instructions_not_modeled")) return;
  Node list = root.at("nki_instructions_not_modeled");
  for (std::size_t i = 0; i < list.size(); ++i) {
    Node n = list.at(i);
    std::string name = n.str();
    if (spec.find_instruction(name) >= 0) n.fail("\"" + name + "\" is a modeled instruction");
    if (spec.is_nki_not_modeled(name)) n.fail("\"" + name + "\" listed twice");
    spec.nki_not_modeled.push_back(std::move(name));
  }
}

}  // namespace

Spec load_spec(std::string_view json_text) {
  json j;
  try {
    j = json::parse(json_text);
  } catch (const json::parse_error& e) {
    throw SpecError(std::string("isa-spec: not valid JSON: ") + e.what());
  }
  Node root{j, ""};
  Spec spec;
  spec.format = static_cast<int>(root.at("format").integer(1, 1));
  spec.name = root.at("name").str();
  parse_archs(root, spec);
  parse_nki_versions(root, spec);
  spec.partitions = static_cast<int>(root.at("partitions").integer(1, 128));
  parse_engines(root, spec);
  parse_dtypes(root, spec);
  parse_enums(root, spec);
  for (const char* required : {"compare", "alu", "reduce", "reduce_cmd", "activation"})
    if (spec.find_enum(required) < 0) root.at("enums").fail(std::string("missing enum \"") + required + "\"");
  Node enc = root.at("encoding");
  spec.opcode_bits = static_cast<int>(enc.at("opcode_bits").integer(1, 16));
  Node sl = enc.at("tensor_slice");
  spec.slice_encoding.start_bits = static_cast<int>(sl.at("start_bits").integer(1, 40));
  spec.slice_encoding.count_bits = static_cast<int>(sl.at("count_bits").integer(1, 40));
  spec.slice_encoding.step_bits = static_cast<int>(sl.at("step_bits").integer(1, 40));
  Node ap = enc.at("access_pattern");
  PatternEncoding& pe = spec.pattern_encoding;
  pe.offset_bits = static_cast<int>(ap.at("offset_bits").integer(1, 40));
  pe.dims_bits = static_cast<int>(ap.at("dims_bits").integer(0, 4));
  pe.step_bits = static_cast<int>(ap.at("step_bits").integer(2, 40));
  pe.num_bits = static_cast<int>(ap.at("num_bits").integer(1, 32));
  pe.indirect_dim_bits = static_cast<int>(ap.at("indirect_dim_bits").integer(1, 4));
  // program_check sums steps * nums over every dimension in int64.
  if (pe.step_bits - 1 + pe.num_bits + pe.dims_bits > 62) ap.fail("step_bits - 1 + num_bits + dims_bits must be at most 62");
  Node cost = root.at("cost");
  if (!cost.j.is_object()) cost.fail("expected an object");
  for (auto it = cost.j.begin(); it != cost.j.end(); ++it)
    if (it.key() != "note" && it.key() != "timeline")
      spec.cost_constants.emplace_back(it.key(), Node{it.value(), "/cost/" + it.key()}.number());
  const TimelineNames timeline = parse_timeline(cost.at("timeline"), spec);
  parse_instructions(root, spec, timeline);
  parse_nki_not_modeled(root, spec);
  spec.json = j.dump();
  spec.id = spec_id_of(spec.json);
  return spec;
}

}  // namespace nisa
