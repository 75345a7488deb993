// nisa dis (LANGUAGE.md section 1): .nbin -> canonical .nasm on stdout or -o.
#include <iostream>

#include "commands.hpp"
#include "disassembler.hpp"
#include "error.hpp"
#include "file_io.hpp"
#include "nbin.hpp"
#include "spec.hpp"

namespace nisa {

int command_dis(const DisOptions& o) {
  const Spec& spec = active_spec();
  Program program = decode_program(spec, read_file_bytes(o.input), o.input);
  std::string text = disassemble(spec, program);
  if (o.output.empty())
    std::cout << text;
  else
    write_file_atomically(o.output, text);
  return kExitOk;
}

}  // namespace nisa
