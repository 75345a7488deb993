#include "list_parser.hpp"

#include <string>

#include "source_error.hpp"

namespace nisa {

namespace {

// Built with += only: g++ 12 warns falsely (-Wrestrict) on "literal" + string.
std::string token_text(const Token& t) {
  if (t.kind == TokenKind::end) return "the end of the value";
  std::string s = "'";
  s += t.text;
  s += '\'';
  return s;
}


// `[` e, e, ... `]` with exactly `size` integers when size > 0 (any number otherwise).
int64_t parse_flat(TokenCursor& cur, const NameScope& scope, int size, std::vector<int64_t>& out, const std::string& what) {
  const Token& open = cur.peek();
  if (!cur.accept('[')) throw SourceError{open.column, "expected '[' to start " + what + ", got " + token_text(open)};
  int64_t count = 0;
  if (!cur.peek().is(']')) {
    while (true) {
      const Token& t = cur.peek();
      if (t.is('[')) throw SourceError{t.column, what + " holds integers, not lists"};
      out.push_back(require_integer(parse_expression(cur, scope), t.column, what + " element"));
      ++count;
      if (cur.peek().is(']')) break;
      if (!cur.accept(',')) throw SourceError{cur.peek().column, "expected ',' or ']' in " + what + ", got " + token_text(cur.peek())};
    }
  }
  cur.next();  // ']'
  if (size > 0 && count != size)
    throw SourceError{open.column, what + " has " + std::to_string(count) + " integers, expected " + std::to_string(size)};
  return count;
}

}  // namespace

int64_t parse_integer_list(TokenCursor& cur, const NameScope& scope, int entry_size, std::vector<int64_t>& out, std::string_view what) {
  const std::string name(what);
  if (entry_size <= 1) return parse_flat(cur, scope, 0, out, name);
  const Token& open = cur.peek();
  if (!cur.accept('[')) throw SourceError{open.column, "expected '[' to start " + name + ", got " + token_text(open)};
  int64_t count = 0;
  if (cur.accept(']')) return 0;
  while (true) {
    const Token& t = cur.peek();
    if (!t.is('['))
      throw SourceError{t.column, name + " is a list of [" + std::to_string(entry_size) + " integers] entries, got " + token_text(t)};
    parse_flat(cur, scope, entry_size, out, name + " entry " + std::to_string(count));
    ++count;
    if (cur.accept(']')) return count;
    if (!cur.accept(',')) throw SourceError{cur.peek().column, "expected ',' or ']' in " + name + ", got " + token_text(cur.peek())};
  }
}

}  // namespace nisa
