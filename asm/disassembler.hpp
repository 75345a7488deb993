// Program to canonical .nasm text that assembles back to the identical .nbin,
// line table included (it emits .arch, .file and .loc as needed).
#pragma once
#include <string>

#include "program.hpp"
#include "spec.hpp"

namespace nisa {

std::string disassemble(const Spec& spec, const Program& program);

}  // namespace nisa
