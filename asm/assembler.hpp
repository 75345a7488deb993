// Text to program: the whole .nasm language of LANGUAGE.md section 2. All
// errors of one run are collected as diagnostics (capped), each printed as
// `FILE:LINE:COL: error: MESSAGE`, the source line and a caret.
#pragma once
#include <cstdint>
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

// Resource limits (LANGUAGE.md 2.1 leaves them to the implementation): a
// runaway .rept nest ends with an error at its outermost .rept line, not a
// hang or an out-of-memory kill. 1,000,000 executed lines is 10x the largest
// benchmark program. The fuzz targets lower them (a legitimate million-line
// expansion takes tens of seconds under the sanitizers).
struct AssembleLimits {
  int64_t executed_lines = 1'000'000;  // lines run, .rept expansion included
  int64_t rept_iterations = 1'000'000;  // iterations of all .rept loops (bodies may be empty)
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
AssembleResult assemble(const Spec& spec, std::string_view source, const std::string& file_name, InstructionSink* sink,
                        const AssembleLimits& limits = {});

}  // namespace nisa
