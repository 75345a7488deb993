// Every check that can be made before running, driven by the spec (issue 2,
// point 3): kinds, memories, dtypes, slices within their tensors, shape
// relations, enum values, integer ranges, the arch, partition alignment (S1.5),
// tensors that fit SBUF/PSUM. The assembler reports failures at the source
// column of the operand; the .nbin loader reports them at a byte offset. A
// program that passes is safe to execute: the interpreter's loops need no checks.
#pragma once
#include <cstdint>
#include <string>
#include <unordered_set>
#include <vector>

#include "program.hpp"
#include "spec.hpp"

namespace nisa {

struct CheckFailure {
  int operand = -1;  // index of the offending operand in the instruction spec; -1: the instruction
  std::string message;  // one line, no location prefix
};

// Checks one tensor declaration (shape, fits its memory, PSUM/SBUF sizes of the
// program's arch, role/init consistency, a name no earlier tensor has; the
// HBM total is a run's limit, hbm_limits.hpp). Failures name no operand. Linear in
// `tensor`: for one declaration; a whole program goes through TensorChecker.
std::vector<CheckFailure> check_tensor(const Spec& spec, const Program& program, int tensor);

// The same checks for the declarations of a program in order, each against
// those checked before it, in constant time each (a hash set of names):
// issue 24, 100,000 declarations took 68 s when each
// scanned all earlier ones.
class TensorChecker {
 public:
  std::vector<CheckFailure> check(const Spec& spec, const Program& program, int tensor);

 private:
  std::unordered_set<std::string> names_;  // "core:name" (core -1: shared)
  int32_t last_core_ = TensorDecl::kShared;
};

// What depends on the core an instruction runs on (LANGUAGE.md 2.7): every
// tensor it names is shared HBM or that core's own, and a cross-core
// instruction (sendrecv, core_barrier: spec cross_core) names other cores of
// a program that has them.
std::vector<CheckFailure> check_on_core(const Spec& spec, const Program& program, const Instruction& ins, int core);

// Checks one instruction. Operands must already be in spec order with defaults
// filled in (absent only for optional operands without a default).
std::vector<CheckFailure> check_instruction(const Spec& spec, const Program& program, const Instruction& ins);

}  // namespace nisa
