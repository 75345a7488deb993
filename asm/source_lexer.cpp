#include "source_lexer.hpp"

#include <array>
#include <charconv>
#include <cstdlib>
#include <system_error>
#include <string>

namespace nisa {

namespace {

// Character classes, one table look-up each (the lexer sees every byte of the source).
enum : uint8_t { kIdentStart = 1, kDigit = 2, kHexDigit = 4, kPunct = 8, kSpace = 16 };
constexpr std::array<uint8_t, 256> make_classes() {
  std::array<uint8_t, 256> t{};
  for (int c = 'A'; c <= 'Z'; ++c) t[c] |= kIdentStart;
  for (int c = 'a'; c <= 'z'; ++c) t[c] |= kIdentStart;
  t['_'] |= kIdentStart;
  for (int c = '0'; c <= '9'; ++c) t[c] |= kDigit | kHexDigit;
  for (int c = 'a'; c <= 'f'; ++c) t[c] |= kHexDigit;
  for (int c = 'A'; c <= 'F'; ++c) t[c] |= kHexDigit;
  for (char c : std::string_view("[],:=@()+-*/%")) t[static_cast<unsigned char>(c)] |= kPunct;
  for (char c : std::string_view(" \t\r")) t[static_cast<unsigned char>(c)] |= kSpace;
  return t;
}
constexpr std::array<uint8_t, 256> kClasses = make_classes();
bool has_class(char c, uint8_t cls) { return (kClasses[static_cast<unsigned char>(c)] & cls) != 0; }

bool is_ident_start(char c) { return has_class(c, kIdentStart); }
bool is_digit(char c) { return has_class(c, kDigit); }
bool is_ident_char(char c) { return has_class(c, kIdentStart | kDigit); }
bool is_hex_digit(char c) { return has_class(c, kHexDigit); }

// A number starting at line[i]: 0x hex integer, decimal integer, or a float
// with a fraction and/or an e/E exponent.
Token lex_number(std::string_view line, std::size_t& i, bool convert_real) {
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
    if (convert_real) t.real = real_literal_value(t.text);  // overflow gives inf, like the float it becomes
    return t;
  }
  // Decimal digits only here: accumulate with an overflow check (what strtoll's ERANGE reported).
  t.kind = TokenKind::integer;
  uint64_t v = 0;
  if (t.text.size() <= 18) {  // below 10^18: cannot overflow
    for (char c : t.text) v = v * 10 + static_cast<uint64_t>(c - '0');
  } else {
    for (char c : t.text) {
      const auto d = static_cast<uint64_t>(c - '0');
      if (v > (uint64_t{INT64_MAX} - d) / 10) throw SourceError{t.column, "integer literal " + std::string(t.text) + " is too large"};
      v = v * 10 + d;
    }
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

namespace {

// One line's tokens. kAll = false only checks the whole line and keeps its
// first token (the assembler's first pass, which classifies lines).
template <bool kAll>
void lex_line(std::string_view line, std::vector<Token>& out) {
  out.clear();
  auto add = [&](TokenKind kind, std::string_view text, int64_t integer, int column) {
    if (kAll || out.empty()) out.push_back(Token{kind, text, integer, 0, column});
  };
  std::size_t i = 0;
  while (i < line.size()) {
    const char c = line[i];
    const uint8_t cls = kClasses[static_cast<unsigned char>(c)];
    if (cls & kSpace) {
      ++i;
      continue;
    }
    const int column = static_cast<int>(i) + 1;
    if (cls & kPunct) {  // the most frequent tokens first
      add(TokenKind::punct, std::string_view(line.data() + i, 1), 0, column);
      ++i;
      continue;
    }
    if (c == ';' || c == '#') break;
    if (cls & kIdentStart) {
      std::size_t s = i;
      // Dotted names such as fp32.min are one identifier.
      while (i < line.size() && (is_ident_char(line[i]) || (line[i] == '.' && i + 1 < line.size() && is_ident_start(line[i + 1])))) ++i;
      add(TokenKind::identifier, std::string_view(line.data() + s, i - s), 0, column);
      continue;
    }
    if (c == '.' && i + 1 < line.size() && is_ident_start(line[i + 1])) {
      std::size_t s = ++i;
      while (i < line.size() && is_ident_char(line[i])) ++i;
      add(TokenKind::directive, std::string_view(line.data() + s, i - s), 0, column);
      continue;
    }
    if (cls & kDigit) {
      // Fast path: a short decimal integer ending at a delimiter (slice
      // bounds, counts). Anything else (hex, reals, malformed, long) is
      // lexed again in full by lex_number.
      std::size_t j = i;
      while (j < line.size() && is_digit(line[j])) ++j;
      if (j - i <= 18 && (j == line.size() || !(is_ident_char(line[j]) || line[j] == '.'))) {
        uint64_t v = 0;
        for (std::size_t k = i; k < j; ++k) v = v * 10 + static_cast<uint64_t>(line[k] - '0');
        add(TokenKind::integer, std::string_view(line.data() + i, j - i), static_cast<int64_t>(v), column);
        i = j;
        continue;
      }
      if (kAll || out.empty()) out.push_back(lex_number(line, i, kAll));
      else lex_number(line, i, false);
      continue;
    }
    if (c == '.' && i + 1 < line.size() && is_digit(line[i + 1])) {
      if (kAll || out.empty()) out.push_back(lex_number(line, i, kAll));
      else lex_number(line, i, false);
      continue;
    }
    if (c == '"') {
      std::size_t s = ++i;
      while (i < line.size() && line[i] != '"') ++i;
      if (i == line.size()) throw SourceError{column, "unterminated string"};
      add(TokenKind::string, std::string_view(line.data() + s, i - s), 0, column);
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

}  // namespace

std::vector<Token> tokenize_line(std::string_view line) {
  std::vector<Token> out;
  tokenize_line(line, out);
  return out;
}

void tokenize_line(std::string_view line, std::vector<Token>& out) { lex_line<true>(line, out); }

namespace {

// The first pass sees every line once: most are plainly well formed
// (identifiers, punctuation, decimal numbers, a comment), which a plain scan
// confirms much faster than the lexer. False means "not sure" (strings, hex,
// long integers, anything odd): the lexer then decides, with its exact error.
bool check_plain_line(std::string_view line, std::vector<Token>& out) {
  out.clear();
  const std::size_t n = line.size();
  std::size_t i = 0;
  while (i < n) {
    const char c = line[i];
    const uint8_t cls = kClasses[static_cast<unsigned char>(c)];
    if (cls & kSpace) {
      ++i;
      continue;
    }
    if (cls & kPunct) {
      ++i;
      if (out.empty()) out.push_back(Token{TokenKind::punct, line.substr(i - 1, 1), 0, 0, static_cast<int>(i)});
      continue;
    }
    if (c == ';' || c == '#') break;
    const std::size_t s = i;
    if (cls & kIdentStart) {
      for (++i; i < n; ++i) {
        if (is_ident_char(line[i])) continue;
        if (line[i] == '.' && i + 1 < n && is_ident_start(line[i + 1])) continue;
        break;
      }
      if (out.empty()) out.push_back(Token{TokenKind::identifier, line.substr(s, i - s), 0, 0, static_cast<int>(s) + 1});
      continue;
    }
    if (c == '.' && i + 1 < n && is_ident_start(line[i + 1])) {
      ++i;
      while (i < n && is_ident_char(line[i])) ++i;
      if (out.empty()) out.push_back(Token{TokenKind::directive, line.substr(s + 1, i - s - 1), 0, 0, static_cast<int>(s) + 1});
      continue;
    }
    if (!(cls & kDigit) || out.empty()) return false;  // odd characters, or a line that starts with a number
    // A decimal number as lex_number reads it: digits, fraction, exponent.
    for (++i; i < n && is_digit(line[i]);) ++i;
    const std::size_t digits_end = i;
    if (i < n && line[i] == '.') {
      ++i;
      while (i < n && is_digit(line[i])) ++i;
    }
    if (i < n && (line[i] == 'e' || line[i] == 'E')) {
      std::size_t e = i + 1;
      if (e < n && (line[e] == '+' || line[e] == '-')) ++e;
      if (e < n && is_digit(line[e])) {
        i = e;
        while (i < n && is_digit(line[i])) ++i;
      }
    }
    if (i < n && (is_ident_char(line[i]) || line[i] == '.')) return false;  // malformed, or hex
    if (i == digits_end && i - s > 18) return false;  // an integer that might not fit int64
  }
  out.push_back(Token{TokenKind::end, {}, 0, 0, static_cast<int>(n) + 1});
  return true;
}

}  // namespace

void check_line_tokens(std::string_view line, std::vector<Token>& out) {
  if (!check_plain_line(line, out)) lex_line<false>(line, out);
}

}  // namespace nisa
