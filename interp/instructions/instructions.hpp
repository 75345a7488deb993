// One file per instruction (Spike style): instructions/<name>.cpp holds the
// instruction's parameter struct, element body, decoder and --strict hooks,
// and defines `const InstructionSemantics <name>_semantics`. table.cpp lists
// every instruction of the spec (spec_operands.hpp, generated), so a spec
// instruction without its file is a link error.
#pragma once
#include <string_view>

#include "decode_context.hpp"
#include "strict.hpp"

namespace nisa {

using StepDecoder = void (*)(const DecodeContext&, Step&);

struct InstructionSemantics {
  StepDecoder decode = nullptr;
  StrictHooks strict{};  // what --strict must know about it (defaults: nothing special)
};

// <name>_semantics for every spec instruction (declared here so that each
// file's definition has external linkage).
#define NISA_DECLARE_SEMANTICS(name) extern const InstructionSemantics name##_semantics;
NISA_SPEC_INSTRUCTIONS(NISA_DECLARE_SEMANTICS)
#undef NISA_DECLARE_SEMANTICS

// The semantics of spec instruction `name` (of the spec nisa was built from),
// and its spec_instruction::id; nullptr / -1 for an unknown name.
const InstructionSemantics* find_instruction_semantics(std::string_view name, int* id = nullptr);

}  // namespace nisa
