// Constant expressions of the .nasm language (LANGUAGE.md 2.1): literals,
// inf, nan, fp32.min, fp32.max, .equ names, .rept variables, unary minus,
// + - * / % and parentheses. Two integers stay an integer (C semantics for /
// and %); anything else is a double.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "source_lexer.hpp"

namespace nisa {

struct ExprValue {
  bool is_int = true;
  int64_t i = 0;
  double f = 0;
  // A bare real literal (possibly negated) rounded straight from its decimal
  // text, so that "0.1" becomes the float32 nearest to 0.1 without double rounding.
  bool has_literal_f32 = false;
  float literal_f32 = 0;
  double as_double() const { return is_int ? static_cast<double>(i) : f; }
  static ExprValue integer(int64_t v) { return ExprValue{true, v, 0, false, 0}; }
  static ExprValue real(double v) { return ExprValue{false, 0, v, false, 0}; }
};

// The names an expression may use: .rept variables (innermost last, so an
// inner body sees the outer ones) before .equ constants.
struct NameScope {
  const std::vector<std::pair<std::string, ExprValue>>* rept_vars = nullptr;
  const std::map<std::string, ExprValue, std::less<>>* constants = nullptr;
  std::optional<ExprValue> find(std::string_view name) const;
  std::vector<std::string> names() const;
};

// A read position in one line's tokens, optionally stopping at `limit`
// (where `limit_token`, an `end` token, is seen instead): lets a parser read
// one key's value inside the line without copying its tokens.
struct TokenCursor {
  const std::vector<Token>& tokens;
  std::size_t pos = 0;
  std::size_t limit = static_cast<std::size_t>(-1);
  const Token* limit_token = nullptr;

  TokenCursor(const std::vector<Token>& t, std::size_t p = 0) : tokens(t), pos(p) {}
  TokenCursor(const std::vector<Token>& t, std::size_t p, std::size_t lim, const Token& lim_token)
      : tokens(t), pos(p), limit(lim), limit_token(&lim_token) {}
  const Token& peek() const { return pos >= limit ? *limit_token : tokens[pos]; }
  // The token after peek() (the last token, `end`, repeats at the end).
  const Token& peek_second() const {
    if (pos + 1 >= limit) return *limit_token;
    return pos + 1 < tokens.size() ? tokens[pos + 1] : tokens.back();
  }
  const Token& next() {
    if (pos >= limit) return *limit_token;
    return pos + 1 < tokens.size() ? tokens[pos++] : tokens[pos];
  }
  bool at_end() const { return peek().kind == TokenKind::end; }
  bool accept(char punct) {
    if (!peek().is(punct)) return false;
    ++pos;
    return true;
  }
};

// + - * / %: a token that continues an expression after a number.
inline bool is_arithmetic_operator(const Token& t) {
  if (t.kind != TokenKind::punct) return false;
  const char c = t.text[0];
  return c == '+' || c == '-' || c == '*' || c == '/' || c == '%';
}

// Parses one expression at the cursor, stopping before the first token that
// cannot continue it. Throws SourceError.
ExprValue parse_expression(TokenCursor& cur, const NameScope& scope);

// The value as an integer, or SourceError("WHAT must be an integer, got 2.5").
int64_t require_integer(const ExprValue& v, int column, std::string_view what);

// Shortest text that reads back as the same float32 (named constants by name).
std::string scalar_text(float v);

}  // namespace nisa
