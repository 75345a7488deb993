// nisa asm (LANGUAGE.md section 1): assemble, print every diagnostic, and
// write the .nbin only when there were none (output_files.hpp: no partial
// output, never over the source), to a file or with `-o -` to stdout.
#include <iostream>

#include "assembler.hpp"
#include "commands.hpp"
#include "encoding_sink.hpp"
#include "error.hpp"
#include "file_io.hpp"
#include "output_files.hpp"
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

std::string_view as_chars(const std::vector<uint8_t>& bytes) {
  return std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

}  // namespace

int command_asm(const AsmOptions& o) {
  const Spec& spec = active_spec();
  const std::string output = o.output.empty() ? default_output(o.input) : o.output;
  // Before the work: `-o` naming the source or a directory, or `-o -` on a
  // terminal, is refused at once.
  if (is_standard_output(output)) {
    refuse_binary_on_terminal("-o -");
  } else {
    OutputSet outputs;
    outputs.add_input(o.input);
    outputs.add_output(output, std::string_view(), "-o");
    outputs.check();
  }
  const FileText source(o.input);
  // About one instruction per 60 bytes of source in generated code: a
  // reservation guess (only address space) that saves regrowth copies.
  NbinEncoder encoder(spec, source.text().size() / 64);
  EncodingSink sink(encoder);
  AssembleResult result = assemble(spec, source.text(), o.input, &sink, {}, o.cores);
  if (!result.diagnostics.empty()) {
    for (const Diagnostic& d : result.diagnostics) std::cerr << format_diagnostic(d);
    throw DiagnosticsReported(kExitBadInput);
  }
  const NbinEncoder::Parts parts = encoder.finish(result.program);
  std::vector<std::string_view> file{as_chars(parts.head)};
  for (const std::vector<uint8_t>& chunk : parts.stream) file.push_back(as_chars(chunk));
  if (is_standard_output(output)) {
    write_standard_output(file);
    return kExitOk;
  }
  OutputSet result_file;
  result_file.add_input(o.input);
  result_file.add_output(output, file, "-o");
  result_file.commit();
  return kExitOk;
}

}  // namespace nisa
