// nisa dis (LANGUAGE.md section 1): .nbin -> canonical .nasm on stdout (no -o, or -o -) or -o FILE.
#include <iostream>

#include "commands.hpp"
#include "disassembler.hpp"
#include "error.hpp"
#include "file_io.hpp"
#include "output_files.hpp"
#include "nbin.hpp"
#include "spec.hpp"

namespace nisa {

int command_dis(const DisOptions& o) {
  const Spec& spec = active_spec();
  const bool to_stdout = o.output.empty() || is_standard_output(o.output);
  if (!to_stdout) {
    OutputSet outputs;
    outputs.add_input(o.input);
    outputs.add_output(o.output, std::string_view(), "-o");
    outputs.check();  // before the work: `-o` naming the binary or a directory is refused at once
  }
  Program program = decode_program(spec, read_nbin_file(o.input), o.input);
  std::string text = disassemble(spec, program);
  if (to_stdout) {
    std::cout << text;  // main() checks that stdout took it
    return kExitOk;
  }
  OutputSet result_file;
  result_file.add_input(o.input);
  result_file.add_output(o.output, text, "-o");
  result_file.commit();
  return kExitOk;
}

}  // namespace nisa
