#include "interpreter.hpp"

#include <stdexcept>

#include "bit_copy.hpp"
#include "decode_context.hpp"
#include "instructions/instructions.hpp"

namespace nisa {

std::vector<Step> predecode(const Spec& spec, const Program& program, Machine& machine) {
  std::vector<Step> steps(program.instructions.size());
  for (std::size_t i = 0; i < program.instructions.size(); ++i) {
    const Instruction& ins = program.instructions[i];
    const InstructionSpec& ispec = spec.instructions.at(static_cast<std::size_t>(ins.spec_index));
    const StepDecoder decode = find_step_decoder(ispec.name);
    if (decode == nullptr) throw std::logic_error("interp: no semantics for instruction " + ispec.name);
    Step& s = steps[i];
    s.instruction = static_cast<int>(i);
    s.line = ins.line;
    decode(DecodeContext{spec, program, machine, ispec, ins}, s);
  }
  return steps;
}

void execute_step(const Step& s, Machine& machine) {
  if (!s.staged) {
    s.run(s, machine);
    return;
  }
  // S1.6: the kernel wrote a private copy of dst; put it in place.
  const int64_t rows = s.final_dst.elements / s.staging_row_length;
  if (s.staging_reads_dst) copy_tile_bits(s.dst, s.final_dst, s.final_dst.partitions, rows, s.staging_row_length);
  s.run(s, machine);
  copy_tile_bits(s.final_dst, s.dst, s.final_dst.partitions, rows, s.staging_row_length);
}

void execute(const std::vector<Step>& steps, Machine& machine) {
  for (const Step& s : steps) execute_step(s, machine);
}

}  // namespace nisa
