// nisa asm (LANGUAGE.md section 1): assemble, print every diagnostic, and
// write the .nbin only when there were none (atomically: no partial output).
#include <iostream>

#include "assembler.hpp"
#include "commands.hpp"
#include "error.hpp"
#include "file_io.hpp"
#include "nbin.hpp"
#include "spec.hpp"

namespace nisa {

namespace {

// PROG.nasm -> PROG.nbin; a name without an extension gets one.
std::string default_output(const std::string& input) {
  const std::size_t slash = input.find_last_of('/');
  const std::size_t dot = input.find_last_of('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash) || dot == (slash == std::string::npos ? 0 : slash + 1))
    return input + ".nbin";
  return input.substr(0, dot) + ".nbin";
}

}  // namespace

int command_asm(const AsmOptions& o) {
  const Spec& spec = active_spec();
  const std::string source = read_file_text(o.input);
  AssembleResult result = assemble(spec, source, o.input);
  if (!result.diagnostics.empty()) {
    for (const Diagnostic& d : result.diagnostics) std::cerr << format_diagnostic(d);
    throw DiagnosticsReported(kExitBadInput);
  }
  const std::vector<uint8_t> bytes = encode_program(spec, result.program);
  write_file_atomically(o.output.empty() ? default_output(o.input) : o.output, bytes);
  return kExitOk;
}

}  // namespace nisa
