// .arch, .equ, .file and .loc (LANGUAGE.md 2.1).
#include "diagnostics.hpp"
#include "line_parsers.hpp"

namespace nisa {

const std::vector<std::string>& directive_names() {
  static const std::vector<std::string> names = {"arch", "equ", "hbm", "sbuf", "psum", "rept", "endr", "file", "loc"};
  return names;
}

namespace {

void expect_end(const TokenCursor& cur, std::string_view directive) {
  if (!cur.at_end()) throw SourceError{cur.peek().column, "unexpected '" + std::string(cur.peek().text) + "' after ." + std::string(directive)};
}

void parse_arch(AssemblyState& state, TokenCursor& cur, const Token& directive, int line) {
  if (state.arch_line) throw SourceError{directive.column, ".arch is given twice (first at line " + std::to_string(state.arch_line) + ")"};
  if (state.body_started) throw SourceError{directive.column, ".arch must come before every declaration and instruction"};
  const Token& t = cur.peek();
  if (t.kind != TokenKind::identifier) throw SourceError{t.column, "expected an arch name after .arch"};
  cur.next();
  int arch = state.spec.find_arch(t.text);
  if (arch < 0) {
    std::vector<std::string> names;
    std::string all;
    for (const auto& a : state.spec.archs) {
      names.push_back(a.name);
      all += (all.empty() ? "" : ", ") + a.name;
    }
    std::string hint = did_you_mean(t.text, names);
    throw SourceError{t.column, "unknown arch '" + std::string(t.text) + "'" + (hint.empty() ? " (known: " + all + ")" : hint)};
  }
  expect_end(cur, "arch");
  state.program.arch = arch;
  state.arch_line = line;
}

void parse_equ(AssemblyState& state, TokenCursor& cur) {
  const Token& name = cur.peek();
  if (name.kind != TokenKind::identifier) throw SourceError{name.column, "expected a name after .equ"};
  cur.next();
  if (state.find_tensor(name.text) >= 0) throw SourceError{name.column, "'" + std::string(name.text) + "' is already a tensor"};
  if (name.text == "inf" || name.text == "nan" || name.text == "fp32.min" || name.text == "fp32.max" || name.text == "true" ||
      name.text == "false" || name.text == "iota")
    throw SourceError{name.column, "'" + std::string(name.text) + "' is a reserved name"};
  if (!cur.accept(',')) throw SourceError{cur.peek().column, "expected ',' after the .equ name"};
  ExprValue v = parse_expression(cur, state.scope());
  expect_end(cur, "equ");
  // Like gas's .equ/.set, a later definition replaces an earlier one.
  state.constants[std::string(name.text)] = v;
}

}  // namespace

void parse_directive(AssemblyState& state, const std::vector<Token>& tokens, int line) {
  TokenCursor cur{tokens, 0};
  const Token& directive = cur.next();
  const std::string_view d = directive.text;
  if (d == "arch") return parse_arch(state, cur, directive, line);
  if (d == "equ") return parse_equ(state, cur);
  if (d == "file") {
    const Token& t = cur.peek();
    if (t.kind != TokenKind::string) throw SourceError{t.column, "expected a quoted file name after .file"};
    cur.next();
    expect_end(cur, "file");
    state.program.file = t.text;
    return;
  }
  if (d == "loc") {
    const Token& t = cur.peek();
    int64_t n = require_integer(parse_expression(cur, state.scope()), t.column, "the .loc line");
    if (n < 1 || n > 0xFFFFFFFFll) throw SourceError{t.column, ".loc line " + std::to_string(n) + " is out of range [1, 4294967295]"};
    expect_end(cur, "loc");
    state.next_loc = static_cast<uint32_t>(n);
    return;
  }
  throw SourceError{directive.column, "unknown directive '." + std::string(d) + "'" + [&] {
                      std::string best = closest_name(d, directive_names());
                      return best.empty() ? std::string() : "; did you mean '." + best + "'?";
                    }()};
}

}  // namespace nisa
