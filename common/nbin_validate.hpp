// Checks of a decoded program beyond the format itself: what the assembler
// would have refused (program_check.hpp), reported at the byte offset of the
// tensor record or the operand's field.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "program.hpp"
#include "spec.hpp"

namespace nisa::nbin {

// Checks every tensor of `p` in order (TensorChecker); throws
// InputError("FILE: error: tensor record: <reason> at byte AT"), AT the
// offending record's offset from `record_at`.
void validate_tensors(const Spec& spec, const Program& p, const std::string& file, const std::vector<std::size_t>& record_at);

// Throws InputError("FILE: error: WHERE, operand X: <reason> at byte B"), B the
// operand's field offset (operand_at) or the instruction's (at). `core`: the
// core that runs it (check_on_core).
void validate_instruction(const Spec& spec, const Program& p, const Instruction& ins, int core, const std::string& file,
                          const std::string& where, const std::vector<std::size_t>& operand_at, std::size_t at);

}  // namespace nisa::nbin
