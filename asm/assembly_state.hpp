// What the assembler knows while it reads a file: the program built so far
// and the names in scope (.equ constants, .rept variables, tensors).
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "assembler.hpp"
#include "cross_core.hpp"
#include "expression.hpp"
#include "program.hpp"
#include "program_check.hpp"
#include "sequencer_check.hpp"
#include "spec.hpp"

namespace nisa {

struct TensorSite {
  int line = 0;
  int column = 0;    // of the tensor's name in its declaration
  bool poisoned = false;  // its declaration had errors: skip checks of instructions using it
};

// One `key=value` of an instruction line (instruction_parser.cpp).
struct KeyValue {
  const Token* key = nullptr;
  std::size_t value_begin = 0, value_end = 0;  // the value's tokens in the line
  Token value_stop;          // an `end` token at the column after the value
  bool malformed = false;    // already reported; the key counts as given
  int key_column() const { return key->column; }
};

struct AssemblyState {
  explicit AssemblyState(const Spec& s) : spec(s) {}

  const Spec& spec;
  Program program;
  std::map<std::string, ExprValue, std::less<>> constants;     // .equ
  std::vector<std::pair<std::string, ExprValue>> rept_vars;    // innermost last
  std::map<std::string, int, std::less<>> tensor_index;        // name -> index in program.tensors
  std::map<std::string, int, std::less<>> register_index;      // name -> index in program.registers (S17)
  uint64_t tensor_initials = 0;  // bit c % 64 set for the first character c of some tensor name
  uint64_t tensor_lengths = 0;   // bit n % 64 set for the length n of some tensor name
  std::vector<TensorSite> tensor_sites;                        // parallel to program.tensors
  std::map<std::string, int64_t, std::less<>> string_index;    // text -> index in program.strings
  TensorChecker tensor_checker;                                // each declaration against the earlier ones
  int arch_line = 0;                // line of .arch, 0 if none yet
  int nki_line = 0;                 // line of .nki, 0 if none yet
  bool body_started = false;        // a declaration or instruction was seen
  std::optional<uint32_t> next_loc; // set by .loc
  InstructionSink* sink = nullptr;  // set: instructions go here, not into program.instructions
  // LANGUAGE.md 2.7: `.cores N` (line, 0 if none) and the `.core K` section
  // being read (TensorDecl::kShared before the first); positions = the
  // instructions taken so far; the cross-core ops, matched at the end.
  int cores_line = 0;
  int requested_cores = 0;       // --cores N (0: not given)
  bool has_core_sections = false;  // some line is a .core directive (the first pass's finding)
  // A program for several cores without .core sections: its lines are every
  // core's, read once per core with `core` = its number (LANGUAGE.md 2.7);
  // `repeat`: a reading after the first (directives already taken are skipped,
  // HBM declarations are the first reading's).
  bool spmd = false;
  bool repeat = false;
  int32_t current_core = TensorDecl::kShared;
  std::size_t positions = 0;
  CrossCoreCollector cross_core;
  SequencerCheck sequencer{spec, program};  // S17: loops closed, registers set before read

  // Buffers reused by every instruction line, so that a line allocates nothing.
  Instruction scratch_instruction;
  std::vector<KeyValue> scratch_key_values;
  std::vector<int> scratch_item_of;

  NameScope scope() const { return NameScope{&rept_vars, &constants}; }
  void add_tensor_name(const std::string& name, int index) {
    tensor_index[name] = index;
    if (!name.empty()) tensor_initials |= uint64_t{1} << (static_cast<unsigned char>(name[0]) % 64);
    tensor_lengths |= uint64_t{1} << (name.size() % 64);
  }
  int find_register(std::string_view name) const {
    if (register_index.empty()) return -1;
    auto it = register_index.find(name);
    return it == register_index.end() ? -1 : it->second;
  }
  // `.reg NAME` (SEMANTICS S17): like an on-chip tensor, a register is its
  // core's (LANGUAGE.md 2.7), and a name is a tensor's or a register's, never
  // both. "" or why it cannot be declared.
  std::string add_register(std::string_view name, uint32_t line) {
    // Appended piece by piece: g++ 12 warns (-Wrestrict, a false positive) on "..." + std::string here.
    std::string quoted_name(1, '\'');
    quoted_name.append(name).push_back('\'');
    if (const int prev = find_register(name); prev >= 0)
      return "register " + quoted_name + " is already declared at line " + std::to_string(program.registers[static_cast<std::size_t>(prev)].line);
    if (find_tensor(name) >= 0) return quoted_name + " is already a tensor";
    if (constants.count(name)) return quoted_name + " is already an .equ constant";
    if (registers_of_core(program, current_core) >= kMaxRegisters)
      return "too many registers: a core has " + std::to_string(kMaxRegisters) + " (NKI: 64 32-bit registers per engine sequencer; S17.1)";
    register_index[std::string(name)] = static_cast<int>(program.registers.size());
    program.registers.push_back(RegisterDecl{std::string(name), line, current_core});
    return "";
  }
  int find_tensor(std::string_view name) const {
    // Most identifiers that are looked up are not tensors (enum values,
    // constants): a name whose first character starts no tensor name, or
    // whose length is that of none, is answered without searching the map.
    if (name.empty() || !((tensor_initials >> (static_cast<unsigned char>(name[0]) % 64)) & 1u) ||
        !((tensor_lengths >> (name.size() % 64)) & 1u))
      return -1;
    auto it = tensor_index.find(name);
    return it == tensor_index.end() ? -1 : it->second;
  }
  // The index of `text` in program.strings, which takes it on first use.
  int64_t intern_string(std::string_view text) {
    auto it = string_index.find(text);
    if (it != string_index.end()) return it->second;
    const auto index = static_cast<int64_t>(program.strings.size());
    program.strings.emplace_back(text);
    string_index.emplace(std::string(text), index);
    return index;
  }
  // `.core K`: the names of the section before it go out of scope
  // (LANGUAGE.md 2.7: each core's tensors are its own).
  void begin_core(int32_t core) {
    for (std::size_t i = 0; i < program.tensors.size(); ++i) {
      const TensorDecl& t = program.tensors[i];
      if (t.core != TensorDecl::kShared && t.core == current_core) tensor_index.erase(t.name);
    }
    for (const RegisterDecl& r : program.registers)
      if (r.core != TensorDecl::kShared && r.core == current_core) register_index.erase(r.name);
    for (uint64_t& start : program.core_starts)
      if (&start - program.core_starts.data() >= core) start = positions;
    current_core = core;
    constants["core"] = ExprValue::integer(core);  // LANGUAGE.md 2.7: the number of the core whose lines these are
  }
  // Sets a program for `cores` cores; without .core sections its lines are every core's.
  void set_cores(int cores) {
    if (cores > 1) program.core_starts.assign(static_cast<std::size_t>(cores), 0);
    spmd = cores > 1 && !has_core_sections;
    if (spmd) begin_core(0);
    if (cores == 1) constants["core"] = ExprValue::integer(0);  // a count was given: `core` is a name
  }
  // After the last line: sections never opened are empty; why the cores'
  // meetings cannot all happen (SEMANTICS S16), if they cannot.
  std::optional<MeetingFailure> finish_cores() {
    for (std::size_t k = 0; k < program.core_starts.size(); ++k)
      if (static_cast<int32_t>(k) > current_core) program.core_starts[k] = positions;
    if (core_count(program) < 2) return std::nullopt;
    return cross_core.match(spec, program).failure;
  }
  // The core an instruction read now runs on.
  int instruction_core() const { return current_core == TensorDecl::kShared ? 0 : current_core; }
  // Takes a checked instruction (the sink, or the program's list).
  void take_instruction(const Instruction& ins, uint32_t text_line) {
    cross_core.add(spec, instruction_core(), positions, ins, text_line);
    ++positions;
    if (sink) sink->add(program, ins);
    else program.instructions.push_back(ins);
  }
  // The names in scope (for "did you mean"); a core's section does not see
  // the other cores' tensors.
  std::vector<std::string> tensor_names() const {
    std::vector<std::string> out;  // in declaration order (the first of equally close names is suggested)
    for (std::size_t i = 0; i < program.tensors.size(); ++i) {
      const auto it = tensor_index.find(program.tensors[i].name);
      if (it != tensor_index.end() && it->second == static_cast<int>(i)) out.push_back(it->first);
    }
    return out;
  }
  // Why `name` is unknown when another core declares it (LANGUAGE.md 2.7), else "".
  std::string other_core_note(std::string_view name) const {
    for (const TensorDecl& t : program.tensors)
      if (t.name == name && t.core != current_core && t.core != TensorDecl::kShared)
        return " here: tensor '" + t.name + "' is core " + std::to_string(t.core) + "'s, and a core reaches only its own tensors and shared HBM";
    return "";
  }
};

}  // namespace nisa
