// Splits one .nasm line into tokens (LANGUAGE.md section 2): identifiers
// (`fp32.min` style dotted names included), directives (`.rept`), integer and
// float literals, strings and punctuation. Comments (`;` or `#`) end the line.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "source_error.hpp"

namespace nisa {

enum class TokenKind : uint8_t { identifier, directive, integer, real, string, punct, end };

struct Token {
  TokenKind kind = TokenKind::end;
  // Identifier/directive name (directive without '.'), string contents, punct
  // char, number text: a view into the line, which must outlive the token.
  std::string_view text;
  int64_t integer = 0; // integer literal
  double real = 0;     // real literal
  int column = 1;      // 1-based column of the first character
  bool is(char punct) const { return kind == TokenKind::punct && text.size() == 1 && text[0] == punct; }
};

// Tokens of one line, always ending with an `end` token (at the column after
// the last character). Throws SourceError on a malformed token.
std::vector<Token> tokenize_line(std::string_view line);
// The same into `out` (cleared first), so that a caller tokenizing many lines
// reuses one buffer instead of allocating per line.
void tokenize_line(std::string_view line, std::vector<Token>& out);
// Checks the whole line like tokenize_line (same SourceError) but keeps only
// its first token and the `end` token: enough to classify a line.
void check_line_tokens(std::string_view line, std::vector<Token>& out);

// The value of a real literal's text: the double (strtod: nearest, inf on
// overflow) and the float32 nearest to the decimal text itself (strtof).
double real_literal_value(std::string_view text);
float real_literal_f32(std::string_view text);

}  // namespace nisa
