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

// Bounded (asm/diagnostic_text.hpp, LANGUAGE.md 2.6): a message of at
// most ~1 KB, an excerpt of the line rather than the line, and at most 64 KiB
// of formatted text for all diagnostics of one assembly together.
struct Diagnostic {
  std::string file;
  int line = 0;    // 1-based; 0: the diagnostic is about the whole file
  int column = 0;  // 1-based byte column in the line
  std::string message;
  std::string source_line;  // an excerpt of the line around the column ("..." where cut), for the caret display
  int caret = 0;            // 0-based offset of the column in source_line
};

// "FILE:LINE:COL: error: MESSAGE\n<source line excerpt>\n<spaces>^\n"
std::string format_diagnostic(const Diagnostic& d);

struct AssembleResult {
  Program program;                      // valid only if diagnostics is empty
  std::vector<Diagnostic> diagnostics;  // every error found (capped)
};

// Resource limits (LANGUAGE.md 2.6, "Limits"), each counted as documented
// there and reported at the line where it is first exceeded, with its name;
// the assembly then stops (a runaway .rept nest ends with an error, not a
// hang or an out-of-memory kill). The tensor limit is the .nbin format's
// (nbin::max_tensor_count), not one of these. The fuzz targets lower them (a
// legitimate million-line expansion takes tens of seconds under the sanitizers).
struct AssembleLimits {
  // Instructions of the program: instruction lines assembled, each .rept
  // iteration's copy counted; declarations and directives (.loc) are not.
  // 1,000,000 is 5x the largest benchmark program (200,000 instructions).
  int64_t instructions = 1'000'000;
  // Non-blank lines run inside .rept bodies, once per iteration, nested
  // .rept lines included: bounds expansions of lines that are not
  // instructions (.equ, .loc, declarations), which the instruction limit does not.
  int64_t rept_lines = 4'000'000;
  // Iterations of all .rept loops together (an empty body runs no line).
  int64_t rept_iterations = 4'000'000;
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
// `cores` (nisa asm/run --cores N; 0: not given): the core count of a
// program without `.cores` (LANGUAGE.md 2.7); a program with `.cores` must
// say the same.
AssembleResult assemble(const Spec& spec, std::string_view source, const std::string& file_name, InstructionSink* sink,
                        const AssembleLimits& limits = {}, int cores = 0);

}  // namespace nisa
