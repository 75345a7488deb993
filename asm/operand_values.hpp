// Turns the text of one `key=value` into an Operand, by the kind the spec
// gives that key (LANGUAGE.md 2.3): tensor views with slices, scalars
// (float32, or exact int32 where the spec says so), enums by name or alias,
// bools and integers. Range rules live in the checker, not here.
#pragma once
#include <vector>

#include "assembly_state.hpp"
#include "expression.hpp"

namespace nisa {

// Resolves operand `index` of an instruction into `out`; `operands` holds
// the already resolved operands before it in spec order (for
// integer_if_dtype_of). The cursor must cover exactly the value's tokens.
// Throws SourceError (`out` is then unspecified: reset it).
// A string operand's text joins the program's string table (AssemblyState::intern_string).
void resolve_operand(AssemblyState& state, const InstructionSpec& ins, int index, const std::vector<Operand>& operands, TokenCursor& cur,
                     Operand& out);

// The default of an optional operand (absent if it has none), into `out`.
void set_default_operand(const AssemblyState& state, const InstructionSpec& ins, int index, const std::vector<Operand>& operands, Operand& out);

// `out` = Operand{}, keeping the capacity of its view's dimension list.
void reset_operand(Operand& out);

// `NAME`, `NAME[s0, s1, ...]` or `NAME.ap(...)` with the cursor on NAME (a
// declared tensor: number `tensor`, or looked up if -1), into `v`.
void parse_tensor_view(const AssemblyState& state, TokenCursor& cur, TensorView& v, int tensor = -1);

// The tensor of an access-pattern name `NAME.ap`, or -1.
int find_pattern_tensor(const AssemblyState& state, std::string_view name);

// float32 nearest (ties to even) to a double, inf beyond the float range.
float round_to_float32(double v);

// A scalar as stored in an operand: exact int32 when `as_integer`, else float32.
// Throws SourceError (at `column`) if an integer is required and the value is not one.
Operand scalar_operand(const ExprValue& v, bool as_integer, int column, std::string_view what);

// The operand of a string token (OperandKind::string, LANGUAGE.md 2.3): its
// text interned in the program; a control character is a SourceError.
void string_operand(AssemblyState& state, const Token& t, Operand& o);

}  // namespace nisa
