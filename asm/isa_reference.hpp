// The instruction reference printed by `nisa isa` (LANGUAGE.md section 1),
// generated from the spec: per instruction its engine, first arch, operands,
// constraints, encoding bit layout and cost; then enums, dtypes, archs.
#pragma once
#include <string>

#include "spec.hpp"

namespace nisa {

// Markdown; the first line says it is generated.
std::string isa_reference_markdown(const Spec& spec);

}  // namespace nisa
