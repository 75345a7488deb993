// One parser per kind of source line; the driver (assembler.cpp) handles
// .rept/.endr and calls these for every other line it executes.
#pragma once
#include <vector>

#include "assembly_state.hpp"
#include "diagnostics.hpp"
#include "source_lexer.hpp"

namespace nisa {

// .hbm / .sbuf / .psum (LANGUAGE.md 2.1). Reports its errors to `diags`.
void parse_declaration(AssemblyState& state, DiagnosticList& diags, const std::vector<Token>& tokens, int line);
void parse_register(AssemblyState& state, const std::vector<Token>& tokens, int line);

// .arch / .equ / .file / .loc. Throws SourceError.
void parse_directive(AssemblyState& state, const std::vector<Token>& tokens, int line);

// `MNEMONIC key=value, ...` (LANGUAGE.md 2.3). Reports every error of the line.
void parse_instruction(AssemblyState& state, DiagnosticList& diags, const std::vector<Token>& tokens, int line);

// Directive names the language knows (for did-you-mean).
const std::vector<std::string>& directive_names();

}  // namespace nisa
