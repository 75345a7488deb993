#include "source_lexer.hpp"

#include <charconv>
#include <cstdlib>
#include <system_error>
#include <string>

namespace nisa {

namespace {

bool is_ident_start(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_ident_char(char c) { return is_ident_start(c) || is_digit(c); }
bool is_hex_digit(char c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

// A number starting at line[i]: 0x hex integer, decimal integer, or a float
// with a fraction and/or an e/E exponent.
Token lex_number(std::string_view line, std::size_t& i) {
  Token t;
  t.column = static_cast<int>(i) + 1;
  std::size_t start = i;
  if (line[i] == '0' && i + 1 < line.size() && (line[i + 1] == 'x' || line[i + 1] == 'X')) {
    i += 2;
    uint64_t v = 0;
    std::size_t digits = 0;
    while (i < line.size() && is_hex_digit(line[i])) {
      char c = line[i];
      uint64_t d = is_digit(c) ? static_cast<uint64_t>(c - '0') : static_cast<uint64_t>((c | 0x20) - 'a' + 10);
      if (v > (uint64_t{INT64_MAX} - d) / 16) throw SourceError{t.column, "hex literal '" + std::string(line.substr(start, i + 1 - start)) + "...' is too large"};
      v = v * 16 + d;
      ++i, ++digits;
    }
    if (digits == 0) throw SourceError{t.column, "hex literal needs digits after '0x'"};
    if (i < line.size() && is_ident_char(line[i])) {
      while (i < line.size() && is_ident_char(line[i])) ++i;
      throw SourceError{t.column, "malformed number '" + std::string(line.substr(start, i - start)) + "'"};
    }
    t.kind = TokenKind::integer;
    t.integer = static_cast<int64_t>(v);
    t.text = line.substr(start, i - start);
    return t;
  }
  bool real = false;
  while (i < line.size() && is_digit(line[i])) ++i;
  if (i < line.size() && line[i] == '.') {
    real = true;
    ++i;
    while (i < line.size() && is_digit(line[i])) ++i;
  }
  if (i < line.size() && (line[i] == 'e' || line[i] == 'E')) {
    std::size_t e = i + 1;
    if (e < line.size() && (line[e] == '+' || line[e] == '-')) ++e;
    if (e < line.size() && is_digit(line[e])) {
      real = true;
      i = e;
      while (i < line.size() && is_digit(line[i])) ++i;
    }
  }
  t.text = line.substr(start, i - start);
  if (i < line.size() && (is_ident_char(line[i]) || line[i] == '.')) {
    while (i < line.size() && (is_ident_char(line[i]) || line[i] == '.')) ++i;
    throw SourceError{t.column, "malformed number '" + std::string(line.substr(start, i - start)) + "'"};
  }
  if (real) {
    t.kind = TokenKind::real;
    t.real = real_literal_value(t.text);  // overflow gives inf, like the float it becomes
    return t;
  }
  // Decimal digits only here: accumulate with an overflow check (what strtoll's ERANGE reported).
  t.kind = TokenKind::integer;
  uint64_t v = 0;
  for (char c : t.text) {
    const auto d = static_cast<uint64_t>(c - '0');
    if (v > (uint64_t{INT64_MAX} - d) / 10) throw SourceError{t.column, "integer literal " + std::string(t.text) + " is too large"};
    v = v * 10 + d;
  }
  t.integer = static_cast<int64_t>(v);
  return t;
}

// strtod/strtof need a terminated string: number texts are short, so copy to the stack.
template <class Convert>
auto convert_terminated(std::string_view text, Convert convert) {
  char buf[64];
  if (text.size() < sizeof buf) {
    text.copy(buf, text.size());
    buf[text.size()] = '\0';
    return convert(buf);
  }
  return convert(std::string(text).c_str());
}

}  // namespace

// std::from_chars rounds exactly like strtod/strtof (nearest, ties to even)
// and is several times faster; out of range it leaves the value alone, so
// those (rare) texts go to strtod/strtof for their inf or denormal result.
double real_literal_value(std::string_view text) {
  double v = 0;
  const auto r = std::from_chars(text.data(), text.data() + text.size(), v);
  if (r.ec == std::errc() && r.ptr == text.data() + text.size()) return v;
  return convert_terminated(text, [](const char* c) { return std::strtod(c, nullptr); });
}

float real_literal_f32(std::string_view text) {
  float v = 0;
  const auto r = std::from_chars(text.data(), text.data() + text.size(), v);
  if (r.ec == std::errc() && r.ptr == text.data() + text.size()) return v;
  return convert_terminated(text, [](const char* c) { return std::strtof(c, nullptr); });
}

std::vector<Token> tokenize_line(std::string_view line) {
  std::vector<Token> out;
  tokenize_line(line, out);
  return out;
}

void tokenize_line(std::string_view line, std::vector<Token>& out) {
  out.clear();
  std::size_t i = 0;
  while (i < line.size()) {
    char c = line[i];
    if (c == ';' || c == '#') break;
    if (c == ' ' || c == '\t' || c == '\r') {
      ++i;
      continue;
    }
    int column = static_cast<int>(i) + 1;
    if (is_ident_start(c)) {
      std::size_t s = i;
      // Dotted names such as fp32.min are one identifier.
      while (i < line.size() && (is_ident_char(line[i]) || (line[i] == '.' && i + 1 < line.size() && is_ident_start(line[i + 1])))) ++i;
      out.push_back(Token{TokenKind::identifier, line.substr(s, i - s), 0, 0, column});
      continue;
    }
    if (c == '.' && i + 1 < line.size() && is_ident_start(line[i + 1])) {
      std::size_t s = ++i;
      while (i < line.size() && is_ident_char(line[i])) ++i;
      out.push_back(Token{TokenKind::directive, line.substr(s, i - s), 0, 0, column});
      continue;
    }
    if (is_digit(c) || (c == '.' && i + 1 < line.size() && is_digit(line[i + 1]))) {
      out.push_back(lex_number(line, i));
      continue;
    }
    if (c == '"') {
      std::size_t s = ++i;
      while (i < line.size() && line[i] != '"') ++i;
      if (i == line.size()) throw SourceError{column, "unterminated string"};
      out.push_back(Token{TokenKind::string, line.substr(s, i - s), 0, 0, column});
      ++i;
      continue;
    }
    static constexpr std::string_view puncts = "[],:=@()+-*/%";
    if (puncts.find(c) != std::string_view::npos) {
      out.push_back(Token{TokenKind::punct, line.substr(i, 1), 0, 0, column});
      ++i;
      continue;
    }
    std::string shown(1, c);
    auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte >= 0x7f) {
      static constexpr char hex[] = "0123456789abcdef";
      shown = std::string("\\x") + hex[byte >> 4] + hex[byte & 15];
    }
    throw SourceError{column, "unexpected character '" + shown + "'"};
  }
  out.push_back(Token{TokenKind::end, {}, 0, 0, static_cast<int>(line.size()) + 1});
}

}  // namespace nisa
