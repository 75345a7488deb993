// What the assembler knows while it reads a file: the program built so far
// and the names in scope (.equ constants, .rept variables, tensors).
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "expression.hpp"
#include "program.hpp"
#include "spec.hpp"

namespace nisa {

struct TensorSite {
  int line = 0;
  int column = 0;    // of the tensor's name in its declaration
  bool poisoned = false;  // its declaration had errors: skip checks of instructions using it
};

struct AssemblyState {
  const Spec& spec;
  Program program;
  std::map<std::string, ExprValue, std::less<>> constants;     // .equ
  std::vector<std::pair<std::string, ExprValue>> rept_vars;    // innermost last
  std::map<std::string, int, std::less<>> tensor_index;        // name -> index in program.tensors
  std::vector<TensorSite> tensor_sites;                        // parallel to program.tensors
  int arch_line = 0;                // line of .arch, 0 if none yet
  bool body_started = false;        // a declaration or instruction was seen
  std::optional<uint32_t> next_loc; // set by .loc

  NameScope scope() const { return NameScope{&rept_vars, &constants}; }
  int find_tensor(std::string_view name) const {
    auto it = tensor_index.find(name);
    return it == tensor_index.end() ? -1 : it->second;
  }
  std::vector<std::string> tensor_names() const {
    std::vector<std::string> out;
    for (const auto& t : program.tensors) out.push_back(t.name);
    return out;
  }
};

}  // namespace nisa
