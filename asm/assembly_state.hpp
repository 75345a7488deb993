// What the assembler knows while it reads a file: the program built so far
// and the names in scope (.equ constants, .rept variables, tensors).
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "assembler.hpp"
#include "expression.hpp"
#include "program.hpp"
#include "program_check.hpp"
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
  uint64_t tensor_initials = 0;  // bit c % 64 set for the first character c of some tensor name
  uint64_t tensor_lengths = 0;   // bit n % 64 set for the length n of some tensor name
  std::vector<TensorSite> tensor_sites;                        // parallel to program.tensors
  std::map<std::string, int64_t, std::less<>> string_index;    // text -> index in program.strings
  TensorChecker tensor_checker;                                // each declaration against the earlier ones
  int arch_line = 0;                // line of .arch, 0 if none yet
  bool body_started = false;        // a declaration or instruction was seen
  std::optional<uint32_t> next_loc; // set by .loc
  InstructionSink* sink = nullptr;  // set: instructions go here, not into program.instructions

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
  std::vector<std::string> tensor_names() const {
    std::vector<std::string> out;
    for (const auto& t : program.tensors) out.push_back(t.name);
    return out;
  }
};

}  // namespace nisa
