// Shared by the assembler's unit tests: assemble a snippet with the shipped spec.
#pragma once
#include <doctest/doctest.h>

#include <string>

#include "assembler.hpp"
#include "spec.hpp"

namespace asm_test {

inline const nisa::Spec& spec() {
  static const nisa::Spec s = nisa::load_spec(nisa::embedded_spec_text());
  return s;
}

// All diagnostics of a run, formatted as `nisa asm` prints them.
inline std::string errors_of(const std::string& source) {
  std::string out;
  for (const auto& d : nisa::assemble(spec(), source, "t.nasm").diagnostics) out += nisa::format_diagnostic(d);
  return out;
}

// Only the message of the first diagnostic ("" if none).
inline std::string first_error(const std::string& source) {
  auto r = nisa::assemble(spec(), source, "t.nasm");
  return r.diagnostics.empty() ? "" : r.diagnostics[0].message;
}

inline nisa::Program assemble_ok(const std::string& source) {
  auto r = nisa::assemble(spec(), source, "t.nasm");
  std::string all;
  for (const auto& d : r.diagnostics) all += nisa::format_diagnostic(d);
  REQUIRE_MESSAGE(r.diagnostics.empty(), all);
  return r.program;
}

inline int instruction_index(const char* name) { return spec().find_instruction(name); }

}  // namespace asm_test
