// Text to program: the whole .nasm language of LANGUAGE.md section 2. All
// errors of one run are collected as diagnostics (capped), each printed as
// `FILE:LINE:COL: error: MESSAGE`, the source line and a caret.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "program.hpp"
#include "spec.hpp"

namespace nisa {

struct Diagnostic {
  std::string file;
  int line = 0;    // 1-based
  int column = 0;  // 1-based
  std::string message;
  std::string source_line;  // the line's text, for the caret display
};

// "FILE:LINE:COL: error: MESSAGE\n<source line>\n<spaces>^\n"
std::string format_diagnostic(const Diagnostic& d);

struct AssembleResult {
  Program program;                      // valid only if diagnostics is empty
  std::vector<Diagnostic> diagnostics;  // every error found (capped)
};

AssembleResult assemble(const Spec& spec, std::string_view source, const std::string& file_name);

// Receives each instruction the assembler accepts, in source order. `program`
// has the tensors and settings declared so far (not its instructions).
class InstructionSink {
 public:
  virtual void add(const Program& program, const Instruction& ins) = 0;

 protected:
  ~InstructionSink() = default;
};

// The same, but each accepted instruction goes to `sink` instead of
// result.program.instructions, which stays empty: `nisa asm` encodes
// instructions as they come and never holds the program model of a long file.
AssembleResult assemble(const Spec& spec, std::string_view source, const std::string& file_name, InstructionSink* sink);

}  // namespace nisa
