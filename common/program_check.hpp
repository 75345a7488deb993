// Every check that can be made before running, driven by the spec (issue 2,
// point 3): kinds, memories, dtypes, slices within their tensors, shape
// relations, enum values, integer ranges, the arch, partition alignment (S1.5),
// tensors that fit SBUF/PSUM. The assembler reports failures at the source
// column of the operand; the .nbin loader reports them at a byte offset. A
// program that passes is safe to execute: the interpreter's loops need no checks.
#pragma once
#include <string>
#include <vector>

#include "program.hpp"
#include "spec.hpp"

namespace nisa {

struct CheckFailure {
  int operand = -1;  // index of the offending operand in the instruction spec; -1: the instruction
  std::string message;  // one line, no location prefix
};

// Checks one tensor declaration (shape, fits its memory, PSUM/SBUF sizes of the
// program's arch, role/init consistency). Failures name no operand.
std::vector<CheckFailure> check_tensor(const Spec& spec, const Program& program, int tensor);

// Checks one instruction. Operands must already be in spec order with defaults
// filled in (absent only for optional operands without a default).
std::vector<CheckFailure> check_instruction(const Spec& spec, const Program& program, const Instruction& ins);

}  // namespace nisa
