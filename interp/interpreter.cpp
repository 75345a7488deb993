#include "interpreter.hpp"

#include <stdexcept>

#include "bit_copy.hpp"
#include "decode_context.hpp"
#include "error.hpp"
#include "instructions/instructions.hpp"
#include "prefault.hpp"

namespace nisa {

namespace {

// Decodes `count` instructions, `instruction_at(i)` giving the i-th (program
// order, which is the order they run in).
template <class InstructionAt>
DecodedProgram predecode_each(const Spec& spec, const Program& program, Machine& machine, std::size_t count,
                              InstructionAt&& instruction_at) {
  // Enum operands are decoded by index into the enums generated at build time.
  if (!spec_enum::spec_enums_match(spec))
    throw InputError("isa-spec: its enums differ from those of the spec nisa was built with (values, names or order); "
                     "nisa run needs the same enums");
  // Operands are decoded by slot (spec_operands.hpp): the same names in the same order.
  if (!spec_operands_match(spec))
    throw InputError("isa-spec: the operands of an instruction differ from those of the spec nisa was built with "
                     "(names or order); nisa run needs the same operands");
  DecodedProgram decoded{{}, std::make_unique<TileTable>(machine, program)};
  // Steps of a long program are tens of MB: map their pages in one call
  // rather than one fault per 4 KB (several microseconds each on a VM).
  decoded.steps.reserve(count);
  prefault_for_writing(decoded.steps.data(), count * sizeof(Step));
  decoded.steps.resize(count);
  // Semantics by spec index: looked up by name once per instruction kind.
  std::vector<const InstructionSemantics*> semantics(spec.instructions.size(), nullptr);
  std::vector<int> ids(spec.instructions.size(), -1);
  for (std::size_t k = 0; k < spec.instructions.size(); ++k)
    semantics[k] = find_instruction_semantics(spec.instructions[k].name, &ids[k]);
  for (std::size_t i = 0; i < count; ++i) {
    const Instruction& ins = instruction_at(i);
    const auto kind = static_cast<std::size_t>(ins.spec_index);
    const InstructionSpec& ispec = spec.instructions.at(kind);
    if (semantics[kind] == nullptr)
      throw InputError("isa-spec: instruction " + ispec.name + " is not one nisa was built with; nisa run has no semantics for it");
    Step& s = decoded.steps[i];
    s.instruction = static_cast<int>(i);
    s.line = ins.line;
    s.strict = &semantics[kind]->strict;
    semantics[kind]->decode(DecodeContext{spec, program, machine, ispec, ins, *decoded.tiles, ids[kind]}, s);
  }
  return decoded;
}

}  // namespace

DecodedProgram predecode(const Spec& spec, const Program& program, Machine& machine) {
  return predecode_each(spec, program, machine, program.instructions.size(),
                        [&](std::size_t i) -> const Instruction& { return program.instructions[i]; });
}

DecodedProgram predecode(const Spec& spec, const Program& program, DistinctInstructions& instructions, Machine& machine) {
  return predecode_each(spec, program, machine, instructions.size(),
                        [&](std::size_t i) -> const Instruction& { return instructions.at(i); });
}

void execute_step(const Step& s, Machine& machine) {
  if (!s.staged) {
    s.run(s, machine);
    return;
  }
  // S1.6: the kernel wrote a private copy of dst; put it in place.
  const TileAccess& staging = *s.dst;
  const TileAccess& final_dst = *s.final_dst;
  const int64_t rows = final_dst.elements / s.staging_row_length;
  if (s.staging_reads_dst) copy_tile_bits(staging, final_dst, final_dst.partitions, rows, s.staging_row_length);
  s.run(s, machine);
  copy_tile_bits(final_dst, staging, final_dst.partitions, rows, s.staging_row_length);
}

void execute(const std::vector<Step>& steps, Machine& machine) {
  for (const Step& s : steps) execute_step(s, machine);
}

}  // namespace nisa
