// SEMANTICS S17: the rules of a program's sequencer instructions (registers
// and runtime loops) that hold for the program as a whole, checked one
// instruction at a time in program order by everything that builds a
// Program: the assembler, the .nbin decoder and nisa.nki's handover.
//  - every fori_loop/while_loop is closed by an end_loop of the same core,
//    and an end_loop closes an open loop (so a loop body never escapes);
//  - no cross-core meeting inside a loop: meetings are matched before the
//    run, in program order (S16.1);
//  - a register is set before any instruction reads it, in program order
//    (register_move, register_load, register_op or a fori_loop's var set it;
//    one set inside a loop counts from there on);
//  - an instruction names only its own core's registers (LANGUAGE.md 2.7).
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "program.hpp"
#include "program_check.hpp"
#include "spec.hpp"

namespace nisa {

// Calls `use(register, written, operand)` for each register `ins` names: its
// register operands (the dst of a register instruction and a fori_loop's var
// are written, the rest read) and the scalar_offset=REG of its views (read).
void for_each_register(const Spec& spec, const Instruction& ins,
                       const std::function<void(int32_t reg, bool written, int operand)>& use);

class SequencerCheck {
 public:
  SequencerCheck(const Spec& spec, const Program& program) : spec_(spec), program_(program) {}
  // `ins`, the next instruction of `core` (`text_line` its line in the
  // source, for the messages of later ones): a failure, or nothing.
  std::optional<CheckFailure> add(int core, const Instruction& ins, uint32_t text_line);
  // After the last instruction: the innermost loop left open, if any.
  struct OpenLoop {
    uint32_t text_line = 0;
    std::string message;
  };
  std::optional<OpenLoop> finish() const;
  // A loop instruction refused for its own errors (the assembler's): its
  // loop is open all the same, so that its end_loop closes it.
  void open_refused(uint32_t text_line) { open_.push_back(text_line); }
  bool has_loops() const { return has_loops_; }

 private:
  std::optional<CheckFailure> change_core(int core);
  const Spec& spec_;
  const Program& program_;
  int core_ = 0;
  std::vector<uint32_t> open_;  // the text lines of the open loops, innermost last
  std::vector<bool> set_;       // per register: set by now (on core_)
  bool has_loops_ = false;
};

// Registers `core` reaches (its own and section-less ones).
int registers_of_core(const Program& p, int32_t core);

}  // namespace nisa
