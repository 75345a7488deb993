// The sequencer registers of SEMANTICS S17.1 as steps read and write them:
// a read of a register nothing has set is a runtime fault naming the
// instruction, its line and the register (the assembler refuses reads that
// come before every set in program order; this catches the rest, such as a
// register set only inside a loop that ran no iteration).
#pragma once
#include <cstdint>

#include "machine.hpp"

namespace nisa {

// Where a register is read, for the fault. No padding bytes: it sits in
// step parameters, which are compared byte for byte (SharedSteps).
struct RegisterSite {
  const Program* program = nullptr;
  const char* instruction = "";
  uint32_t line = 0;
  uint32_t unused = 0;
};
static_assert(sizeof(RegisterSite) == 24, "RegisterSite has no padding bytes");

[[noreturn]] void unset_register(const RegisterSite& site, int32_t reg);

inline int32_t read_register(const Machine& m, int32_t reg, const RegisterSite& site) {
  if (!((m.registers_set >> reg) & 1u)) unset_register(site, reg);
  return m.registers[static_cast<std::size_t>(reg)];
}

inline void write_register(Machine& m, int32_t reg, int32_t value) {
  m.registers[static_cast<std::size_t>(reg)] = value;
  m.registers_set |= uint64_t{1} << reg;
}

// A register-or-integer operand as a step keeps it: `reg` >= 0 names the
// register, else `value` is the constant.
struct RegisterOrInt {
  int32_t reg = -1;
  int32_t value = 0;
  int32_t get(const Machine& m, const RegisterSite& site) const { return reg >= 0 ? read_register(m, reg, site) : value; }
};

}  // namespace nisa
