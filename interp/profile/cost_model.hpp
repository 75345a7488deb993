// Estimated cost of one instruction (SEMANTICS S6), evaluated from the ISA
// spec: the instruction's cost formula (or the first of its "cases" whose
// operands all live in the named memory, e.g. tensor_copy_predicated's 2N when
// src and predicate are both in SBUF, S4.2) plus its "extra_if_present"
// terms (activation's MIN_II when reduce_res is read, S4.6). The formulas were
// compiled when the spec was loaded; nothing here knows any instruction.
#pragma once
#include "cost_formula.hpp"
#include "program.hpp"
#include "spec.hpp"

namespace nisa {

// N, BYTES and P of a tensor operand's view.
CostInputs cost_inputs(const Program& program, const TensorView& view);

// Engine cycles of `ins`, rounded up to a whole cycle.
double instruction_cycles(const Spec& spec, const Program& program, const Instruction& ins);

// Clock of `engine` on the program's arch, in GHz (cycles per ns).
double engine_clock_ghz(const Spec& spec, const Program& program, Engine engine);

}  // namespace nisa
