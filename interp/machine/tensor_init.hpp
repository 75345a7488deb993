// `= INIT` of an HBM input declaration (LANGUAGE.md 2.1): a fill value or
// iota (row-major element index), in the tensor's dtype (S2.2, S2.3).
#pragma once
#include <cstdint>
#include <span>

#include "program.hpp"

namespace nisa {

// Overwrites `bytes` (the tensor's storage, already sized) with its INIT.
void fill_from_init(const TensorDecl& t, std::span<uint8_t> bytes);

}  // namespace nisa
