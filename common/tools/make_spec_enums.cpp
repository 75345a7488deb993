// Build-time tool: make_spec_enums SPEC.json ENUMS.hpp OPERANDS.hpp writes two
// C++ headers.
// ENUMS.hpp: one `enum class` per enum of the spec (values in spec order, so an
// operand's enum index is the C++ value), the value names, and
// spec_enums_match(Spec), which tells whether a spec loaded at run time
// (--spec) has the same enums as the one the interpreter was built with.
// A switch over these enums that misses a spec value is a -Werror build
// failure, so the spec and the C++ semantics cannot drift apart silently.
// OPERANDS.hpp: the spec's instructions (spec_instruction::id, the
// NISA_SPEC_INSTRUCTIONS X-macro) and, per instruction, one OperandSlot
// constant per operand (spec_operand::tensor_tensor::dst ...), so C++ names
// operands by identifiers: a renamed or removed operand is a compile error,
// and an instruction without semantics a link error (interp/instructions/table.cpp).
// spec_operands_match(Spec) checks a --spec file's operand order.
// A spec error fails the build with load_spec's message.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <string>

#include "spec.hpp"

namespace {

// The start of both checks: a spec with this build's id has its canonical
// JSON, so it matches without comparing names (a run of the built-in spec
// pays nothing for a check meant for --spec files).
std::string same_spec_shortcut(const nisa::Spec& spec) {
  return "  if (s.id == 0x" + nisa::spec_id_hex(spec.id) + "ull) return true;  // the spec this build was generated from\n";
}

// Enum value names that are C++ keywords get a trailing underscore.
std::string identifier(const std::string& name) {
  static const std::set<std::string> kKeywords = {
      "and", "or", "xor", "not", "bitand", "bitor", "compl", "and_eq", "or_eq", "xor_eq", "not_eq", "int", "float",
      "double", "bool", "char", "short", "long", "signed", "unsigned", "void", "auto", "default", "delete", "new",
      "case", "switch", "if", "else", "for", "while", "do", "return", "true", "false", "const", "static", "this",
      "operator", "template", "typename", "class", "struct", "union", "enum", "namespace", "using", "register"};
  return kKeywords.count(name) ? name + "_" : name;
}

// Writes `text` to `path` through a temporary (a failed build leaves no half header).
bool write_file(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream f(tmp, std::ios::binary);
    f << text;
    if (!f) {
      std::cerr << tmp << ": error: cannot write\n";
      return false;
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::cerr << path << ": error: cannot write\n";
    return false;
  }
  return true;
}

std::string operands_header(const nisa::Spec& spec) {
  std::ostringstream out;
  out << "// Generated from isa-spec/isa.json by common/tools/make_spec_enums.cpp; do not edit.\n"
      << "#pragma once\n#include <array>\n#include <cstddef>\n#include <iterator>\n#include <string_view>\n\n#include \"spec.hpp\"\n\n"
      << "namespace nisa {\n\n"
      << "// One operand of one instruction: the instruction's place in the spec this\n"
      << "// build was generated from, and the operand's index in its operand list\n"
      << "// (= Instruction::operands index).\n"
      << "struct OperandSlot {\n  int instruction;\n  int index;\n};\n\n"
      << "namespace spec_instruction {\n\nenum class id : int {";
  for (std::size_t i = 0; i < spec.instructions.size(); ++i) out << (i % 6 == 0 ? "\n  " : " ") << identifier(spec.instructions[i].name) << ",";
  out << "\n};\ninline constexpr std::size_t count = " << spec.instructions.size() << ";\n"
      << "inline constexpr std::string_view names[] = {";
  for (std::size_t i = 0; i < spec.instructions.size(); ++i) out << (i % 6 == 0 ? "\n    " : " ") << '"' << spec.instructions[i].name << "\",";
  out << "\n};\n// X(name) for every instruction, in spec order.\n#define NISA_SPEC_INSTRUCTIONS(X)";
  for (const auto& ins : spec.instructions) out << " \\\n  X(" << identifier(ins.name) << ")";
  out << "\n\n// Operand names per instruction, for spec_operands_match.\n";
  for (const auto& ins : spec.instructions) {
    // std::array: an instruction without operands (end_loop) is an empty one.
    out << "inline constexpr std::array<std::string_view, " << ins.operands.size() << "> " << identifier(ins.name) << "_operands = {";
    for (const auto& o : ins.operands) out << '"' << o.name << "\", ";
    out << "};\n";
  }
  out << "\n}  // namespace spec_instruction\n\nnamespace spec_operand {\n";
  for (std::size_t i = 0; i < spec.instructions.size(); ++i) {
    const auto& ins = spec.instructions[i];
    out << "namespace " << identifier(ins.name) << " {\n";
    for (std::size_t k = 0; k < ins.operands.size(); ++k)
      out << "inline constexpr OperandSlot " << identifier(ins.operands[k].name) << "{" << i << ", " << k << "};\n";
    out << "}  // namespace " << identifier(ins.name) << "\n";
  }
  out << "}  // namespace spec_operand\n\n"
      << "// Whether every instruction of `s` that this build knows has the operands\n"
      << "// (names, order) this build was generated from.\n"
      << "inline bool spec_operands_match(const Spec& s) {\n" << same_spec_shortcut(spec)
      << "  auto same = [&](std::string_view name, const std::string_view* operands, std::size_t n) {\n"
      << "    for (const InstructionSpec& i : s.instructions) {\n"
      << "      if (i.name != name) continue;\n"
      << "      if (i.operands.size() != n) return false;\n"
      << "      for (std::size_t k = 0; k < n; ++k)\n"
      << "        if (i.operands[k].name != operands[k]) return false;\n"
      << "    }\n    return true;\n  };\n  using namespace spec_instruction;\n  return";
  for (std::size_t i = 0; i < spec.instructions.size(); ++i) {
    const std::string n = identifier(spec.instructions[i].name);
    out << (i ? " &&\n        " : " ") << "same(names[" << i << "], " << n << "_operands.data(), " << n << "_operands.size())";
  }
  out << ";\n}\n\n}  // namespace nisa\n";
  return out.str();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::cerr << "usage: make_spec_enums SPEC.json ENUMS.hpp OPERANDS.hpp\n";
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  if (!in) {
    std::cerr << argv[1] << ": error: cannot read\n";
    return 1;
  }
  nisa::Spec spec;
  try {
    spec = nisa::load_spec(text.str());
  } catch (const nisa::SpecError& e) {
    std::cerr << argv[1] << ": " << e.what() << "\n";
    return 1;
  }
  std::ostringstream out;
  std::string classes;  // per value: class and unary, for spec_enums_match
  out << "// Generated from isa-spec/isa.json by common/tools/make_spec_enums.cpp; do not edit.\n"
      << "#pragma once\n#include <cstddef>\n#include <cstdint>\n#include <string>\n#include <string_view>\n\n#include \"spec.hpp\"\n\n"
      << "namespace nisa::spec_enum {\n\n";
  for (const nisa::EnumSpec& e : spec.enums) {
    out << "enum class " << e.name << " : uint8_t {";
    for (std::size_t i = 0; i < e.values.size(); ++i) out << (i % 8 == 0 ? "\n  " : " ") << identifier(e.values[i].name) << ",";
    out << "\n};\n";
    out << "inline constexpr std::size_t " << e.name << "_count = " << e.values.size() << ";\n";
    out << "inline constexpr std::string_view " << e.name << "_names[] = {";
    for (std::size_t i = 0; i < e.values.size(); ++i) out << (i % 8 == 0 ? "\n    " : " ") << '"' << e.values[i].name << "\",";
    out << "\n};\n";
    out << "inline std::string_view name(" << e.name << " v) { return " << e.name << "_names[static_cast<std::size_t>(v)]; }\n";
    // NKI's operator classes (spec "class"/"unary"), for the enums of operators.
    out << "inline constexpr bool is_bitvec(" << e.name << " v) {\n  constexpr bool k[] = {";
    for (const auto& v : e.values) out << (v.op_class == nisa::OpClass::bitvec ? "true," : "false,");
    out << "};\n  return k[static_cast<std::size_t>(v)];\n}\n";
    out << "inline constexpr bool is_unary(" << e.name << " v) {\n  constexpr bool k[] = {";
    for (const auto& v : e.values) out << (v.unary ? "true," : "false,");
    out << "};\n  return k[static_cast<std::size_t>(v)];\n}\n\n";
    for (const auto& v : e.values) classes += static_cast<char>('0' + static_cast<int>(v.op_class) + 3 * v.unary);
    classes += '|';
  }
  // The run-time check for a spec given with --spec.
  out << "// Whether `s` has the enums (names, values, order) this build was generated from.\n"
      << "inline bool spec_enums_match(const Spec& s) {\n" << same_spec_shortcut(spec) << "  std::string classes;\n"
      << "  auto same = [&](std::string_view enum_name, const std::string_view* names, std::size_t n) {\n"
      << "    const int e = s.find_enum(enum_name);\n"
      << "    if (e < 0 || s.enums[static_cast<std::size_t>(e)].values.size() != n) return false;\n"
      << "    for (std::size_t i = 0; i < n; ++i) {\n"
      << "      const EnumValueSpec& v = s.enums[static_cast<std::size_t>(e)].values[i];\n"
      << "      if (v.name != names[i]) return false;\n"
      << "      classes += static_cast<char>('0' + static_cast<int>(v.op_class) + 3 * v.unary);\n"
      << "    }\n"
      << "    classes += '|';\n"
      << "    return true;\n  };\n  return";
  for (std::size_t k = 0; k < spec.enums.size(); ++k) {
    const std::string& n = spec.enums[k].name;
    out << (k ? " &&\n        " : " ") << "same(\"" << n << "\", " << n << "_names, " << n << "_count)";
  }
  out << " &&\n         classes == \"" << classes << "\";\n}\n\n}  // namespace nisa::spec_enum\n";

  return write_file(argv[2], out.str()) && write_file(argv[3], operands_header(spec)) ? 0 : 1;
}
