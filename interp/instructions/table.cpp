// Every instruction of the spec nisa was built from, by spec_instruction::id:
// each instructions/<name>.cpp defines <name>_semantics, and a spec
// instruction without one fails the link.
#include "instructions.hpp"

namespace nisa {

const InstructionSemantics* find_instruction_semantics(std::string_view name, int* id) {
#define NISA_SEMANTICS_ADDRESS(name) &name##_semantics,
  static const InstructionSemantics* const kTable[] = {NISA_SPEC_INSTRUCTIONS(NISA_SEMANTICS_ADDRESS)};
#undef NISA_SEMANTICS_ADDRESS
  static_assert(std::size(kTable) == spec_instruction::count);
  for (std::size_t k = 0; k < spec_instruction::count; ++k)
    if (spec_instruction::names[k] == name) {
      if (id != nullptr) *id = static_cast<int>(k);
      return kTable[k];
    }
  if (id != nullptr) *id = -1;
  return nullptr;
}

}  // namespace nisa
