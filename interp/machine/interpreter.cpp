#include "interpreter.hpp"

#include <cstring>
#include <new>
#include <stdexcept>
#include <type_traits>

#include "bit_copy.hpp"
#include "decode_context.hpp"
#include "error.hpp"
#include "instructions.hpp"
#include "loop_walk.hpp"
#include "prefault.hpp"

namespace nisa {

namespace {

// Turns instructions into Steps: the spec checks once, the semantics of each
// instruction kind looked up once.
class ProgramDecoder {
 public:
  ProgramDecoder(const Spec& spec, const Program& program, Machine& machine, TileTable& tiles)
      : spec_(spec), program_(program), machine_(machine), tiles_(tiles) {
    // Enum operands are decoded by index into the enums generated at build time.
    if (!spec_enum::spec_enums_match(spec))
      throw InputError("isa-spec: its enums differ from those of the spec nisa was built with (values, names or order); "
                       "nisa run needs the same enums");
    // Operands are decoded by slot (spec_operands.hpp): the same names in the same order.
    if (!spec_operands_match(spec))
      throw InputError("isa-spec: the operands of an instruction differ from those of the spec nisa was built with "
                       "(names or order); nisa run needs the same operands");
    semantics_.assign(spec.instructions.size(), nullptr);
    ids_.assign(spec.instructions.size(), -1);
    for (std::size_t k = 0; k < spec.instructions.size(); ++k)
      semantics_[k] = find_instruction_semantics(spec.instructions[k].name, &ids_[k]);
  }

  // Decodes the instruction at `position` (program order, which is the order
  // they run in) into `s`, a default Step.
  void decode(std::size_t position, const Instruction& ins, Step& s) {
    const auto kind = static_cast<std::size_t>(ins.spec_index);
    const InstructionSpec& ispec = spec_.instructions.at(kind);
    if (semantics_[kind] == nullptr)
      throw InputError("isa-spec: instruction " + ispec.name + " is not one nisa was built with; nisa run has no semantics for it");
    s.instruction = static_cast<int>(position);
    s.line = ins.line;
    s.strict = &semantics_[kind]->strict;
    semantics_[kind]->decode(DecodeContext{spec_, program_, machine_, ispec, ins, tiles_, ids_[kind]}, s);
  }

 private:
  const Spec& spec_;
  const Program& program_;
  Machine& machine_;
  TileTable& tiles_;
  std::vector<const InstructionSemantics*> semantics_;  // by spec index
  std::vector<int> ids_;
};

template <class InstructionAt>
DecodedProgram predecode_each(const Spec& spec, const Program& program, Machine& machine, std::size_t count,
                              InstructionAt&& instruction_at, std::size_t first = 0) {
  DecodedProgram decoded{{}, std::make_unique<TileTable>(machine, program)};
  ProgramDecoder decoder(spec, program, machine, *decoded.tiles);
  // Steps of a long program are tens of MB: map their pages in one call
  // rather than one fault per 4 KB (several microseconds each on a VM).
  decoded.steps.reserve(count);
  prefault_for_writing(decoded.steps.data(), count * sizeof(Step));
  decoded.steps.resize(count);
  for (std::size_t i = 0; i < count; ++i) decoder.decode(first + i, instruction_at(first + i), decoded.steps[i]);
  return decoded;
}

// A Step whose every byte, padding included, is zero before its members are
// initialised: two steps decoded alike are then equal byte for byte.
void reset_step(Step& s) {
  static_assert(std::is_trivially_copyable_v<Step> && std::is_trivially_destructible_v<Step>);
  std::memset(static_cast<void*>(&s), 0, sizeof s);
  ::new (static_cast<void*>(&s)) Step;
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

DecodedProgram predecode(const Spec& spec, const Program& program, DistinctInstructions& instructions, Machine& machine,
                         PositionRange range) {
  return predecode_each(
      spec, program, machine, range.end - range.begin, [&](std::size_t i) -> const Instruction& { return instructions.at(i); }, range.begin);
}

SharedSteps predecode_shared(const Spec& spec, const Program& program, DistinctInstructions& instructions, Machine& machine,
                             const std::function<void(uint32_t distinct, const Instruction&)>& first_seen,
                             std::optional<PositionRange> range) {
  const PositionRange positions = range.value_or(PositionRange{0, instructions.size()});
  SharedSteps shared{{}, {}, std::make_unique<TileTable>(machine, program)};
  ProgramDecoder decoder(spec, program, machine, *shared.tiles);
  shared.order.reserve(instructions.size());
  // A step or more per distinct instruction: room for as many (mapped in one
  // call), so that the steps of a long program are not moved as they grow.
  shared.steps.reserve(instructions.distinct_count());
  prefault_for_writing(shared.steps.data(), instructions.distinct_count() * sizeof(Step));
  // The latest step of each distinct instruction: the one a repetition may share.
  std::vector<uint32_t> latest(instructions.distinct_count(), UINT32_MAX);
  Step scratch;
  for (std::size_t i = positions.begin; i < positions.end; ++i) {
    reset_step(scratch);
    const Instruction& ins = instructions.at(i);
    decoder.decode(i, ins, scratch);
    uint32_t& candidate = latest[instructions.which(i)];
    if (candidate == UINT32_MAX && first_seen) first_seen(instructions.which(i), ins);
    if (candidate != UINT32_MAX) {
      // Equal but for the position and line (which only --strict reads).
      const Step& before = shared.steps[candidate];
      const int instruction = scratch.instruction;
      const uint32_t line = scratch.line;
      scratch.instruction = before.instruction;
      scratch.line = before.line;
      if (std::memcmp(static_cast<const void*>(&scratch), static_cast<const void*>(&before), sizeof scratch) == 0) {
        shared.order.push_back(candidate);
        continue;
      }
      scratch.instruction = instruction;
      scratch.line = line;
    }
    if (shared.steps.size() >= UINT32_MAX) throw std::length_error("more than 2^32 - 1 distinct steps");
    candidate = static_cast<uint32_t>(shared.steps.size());
    shared.steps.push_back(scratch);
    shared.order.push_back(candidate);
  }
  return shared;
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
  walk_positions(0, steps.size(), machine, [&](std::size_t i) -> const Step& { return steps[i]; },
                 [&](std::size_t i) { execute_step(steps[i], machine); });
}

void execute(const SharedSteps& shared, Machine& machine) {
  const auto step_at = [&](std::size_t i) -> const Step& { return shared.steps[shared.order[i]]; };
  walk_positions(0, shared.order.size(), machine, step_at, [&](std::size_t i) { execute_step(step_at(i), machine); });
}

}  // namespace nisa
