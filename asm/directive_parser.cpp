// .arch, .nki, .equ, .file and .loc (LANGUAGE.md 2.1).
#include "diagnostics.hpp"
#include "line_parsers.hpp"

namespace nisa {

const std::vector<std::string>& directive_names() {
  static const std::vector<std::string> names = {"arch", "nki", "equ", "hbm", "sbuf", "psum", "rept", "endr", "file", "loc", "cores", "core", "reg"};
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
  const int max_cores = state.spec.archs[static_cast<std::size_t>(arch)].max_cores;
  if (core_count(state.program) > max_cores)
    throw SourceError{t.column, "arch " + std::string(t.text) + " has " + std::to_string(max_cores) + " core" + (max_cores == 1 ? "" : "s") +
                                    " per logical core; .cores at line " + std::to_string(state.cores_line) + " asks for " +
                                    std::to_string(core_count(state.program))};
  state.program.arch = arch;
  state.arch_line = line;
}

// .nki VERSION (LANGUAGE.md 2.1): the NKI version whose instruction forms the
// program uses (0.6 topk vs 0.7 topk); before every instruction.
void parse_nki(AssemblyState& state, TokenCursor& cur, const Token& directive, int line) {
  if (state.nki_line) throw SourceError{directive.column, ".nki is given twice (first at line " + std::to_string(state.nki_line) + ")"};
  if (state.positions > 0) throw SourceError{directive.column, ".nki must come before every instruction"};
  const Token& t = cur.peek();
  if (t.kind != TokenKind::real) throw SourceError{t.column, "expected an NKI version (0.6, 0.7) after .nki"};
  cur.next();
  const int nki = state.spec.find_nki_version(t.text);
  if (nki < 0) {
    std::string all;
    for (const std::string& v : state.spec.nki_versions) all += (all.empty() ? "" : ", ") + v;
    throw SourceError{t.column, "unknown NKI version '" + std::string(t.text) + "' (known: " + all + ")"};
  }
  expect_end(cur, "nki");
  state.program.nki = nki;
  state.nki_line = line;
}

void parse_equ(AssemblyState& state, TokenCursor& cur) {
  const Token& name = cur.peek();
  if (name.kind != TokenKind::identifier) throw SourceError{name.column, "expected a name after .equ"};
  cur.next();
  if (state.find_tensor(name.text) >= 0) throw SourceError{name.column, "'" + std::string(name.text) + "' is already a tensor"};
  if (state.find_register(name.text) >= 0) throw SourceError{name.column, "'" + std::string(name.text) + "' is already a register"};
  if (name.text == "inf" || name.text == "nan" || name.text == "fp32.min" || name.text == "fp32.max" || name.text == "true" ||
      name.text == "false" || name.text == "iota")
    throw SourceError{name.column, "'" + std::string(name.text) + "' is a reserved name"};
  if (!cur.accept(',')) throw SourceError{cur.peek().column, "expected ',' after the .equ name"};
  ExprValue v = parse_expression(cur, state.scope());
  expect_end(cur, "equ");
  // Like gas's .equ/.set, a later definition replaces an earlier one.
  state.constants[std::string(name.text)] = v;
}

// .cores N (LANGUAGE.md 2.7): before every declaration and instruction.
void parse_cores(AssemblyState& state, TokenCursor& cur, const Token& directive, int line) {
  if (state.cores_line) throw SourceError{directive.column, ".cores is given twice (first at line " + std::to_string(state.cores_line) + ")"};
  if (state.body_started) throw SourceError{directive.column, ".cores must come before every declaration and instruction"};
  const Token& t = cur.peek();
  const int64_t n = require_integer(parse_expression(cur, state.scope()), t.column, "the core count");
  expect_end(cur, "cores");
  const ArchSpec& arch = state.spec.archs[static_cast<std::size_t>(state.program.arch)];
  if (n < 1 || n > arch.max_cores)
    throw SourceError{t.column, std::to_string(n) + " cores: arch " + arch.name + " runs 1" + (arch.max_cores > 1 ? " to " + std::to_string(arch.max_cores) : "") +
                                    " per logical core"};
  state.cores_line = line;
  state.set_cores(static_cast<int>(n));  // the program's count even when --cores differs: one error, not a cascade
  if (state.requested_cores != 0 && state.requested_cores != n)
    throw SourceError{t.column, "the program is for " + std::to_string(n) + " core" + (n == 1 ? "" : "s") + " but --cores asks for " +
                                    std::to_string(state.requested_cores)};
}

// .core K: the lines up to the next .core are core K's, K = 0, 1, ... in order.
void parse_core(AssemblyState& state, TokenCursor& cur, const Token& directive) {
  if (core_count(state.program) < 2) throw SourceError{directive.column, ".core needs a program for several cores: `.cores 2` first"};
  if (state.body_started && state.current_core == TensorDecl::kShared && state.positions > 0)
    throw SourceError{directive.column, ".core after instructions outside every section"};
  const Token& t = cur.peek();
  const int64_t k = require_integer(parse_expression(cur, state.scope()), t.column, "the core");
  expect_end(cur, "core");
  if (k < 0 || k >= core_count(state.program))
    throw SourceError{t.column, "core " + std::to_string(k) + " is not one of the program's " + std::to_string(core_count(state.program)) + " cores"};
  if (k <= state.current_core)
    throw SourceError{t.column, ".core " + std::to_string(k) + " after .core " + std::to_string(state.current_core) + ": each core's section once, in order"};
  state.body_started = true;
  state.begin_core(static_cast<int32_t>(k));
}

}  // namespace

void parse_directive(AssemblyState& state, const std::vector<Token>& tokens, int line) {
  TokenCursor cur{tokens, 0};
  const Token& directive = cur.next();
  const std::string_view d = directive.text;
  // Every core's reading of a program without sections takes these once (the first).
  if (state.repeat && (d == "arch" || d == "nki" || d == "cores" || d == "file")) return;
  if (d == "arch") return parse_arch(state, cur, directive, line);
  if (d == "nki") return parse_nki(state, cur, directive, line);
  if (d == "equ") return parse_equ(state, cur);
  if (d == "cores") return parse_cores(state, cur, directive, line);
  if (d == "core") return parse_core(state, cur, directive);
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
