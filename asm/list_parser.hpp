// Bracketed lists of integer expressions (LANGUAGE.md 2.4: NKI's list and
// tuple parameters): `[e0, e1, ...]`, or, for entries of several integers, a
// list of bracketed entries `[[a0, b0], [a1, b1], ...]`. Used by list
// operands (`axis=[1]`, iota's `pattern=[[1, 64]]`); reusable wherever the
// language takes such a list.
#pragma once
#include <cstdint>
#include <string_view>
#include <vector>

#include "expression.hpp"

namespace nisa {

// Reads one list at the cursor (on its '['), each element an integer
// expression of `scope`. `entry_size` 1: a flat list; n >= 2: every entry is
// itself a bracketed list of exactly n integers. Appends the integers
// row-major to `out` and returns the number of entries (`[]` has none). `what`
// names the list in messages ("'pattern'"). Throws SourceError at the column
// of the offending token.
int64_t parse_integer_list(TokenCursor& cur, const NameScope& scope, int entry_size, std::vector<int64_t>& out,
                           std::string_view what);

}  // namespace nisa
