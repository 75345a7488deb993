// The assembler's driver (asm/assembler.hpp): splits the source into lines
// and checks each as it is found (first pass: lexer errors, .rept/.endr),
// executes them with .rept/.endr expansion, then allocates SBUF/PSUM and
// collects every diagnostic.
#include "assembler.hpp"

#include <algorithm>
#include <bit>
#include <unordered_map>

#include "diagnostic_text.hpp"
#include "diagnostics.hpp"
#include "line_parsers.hpp"
#include "nbin_format.hpp"
#include "tensor_allocator.hpp"

namespace nisa {

namespace {

// Resource limits beside AssembleLimits (assembler.hpp).
constexpr int64_t kMaxReptCount = 1'000'000;
constexpr int kMaxReptNesting = 64;
// Tokens of .rept body lines kept for the next iterations (48 bytes each: at most ~12 MB).
constexpr std::size_t kMaxCachedTokens = std::size_t{1} << 18;

bool is_directive(const std::vector<Token>& tokens, std::string_view name) {
  return !tokens.empty() && tokens[0].kind == TokenKind::directive && tokens[0].text == name;
}

// What the first pass learned about a line. The first pass keeps no tokens
// (all lines' tokens would take ~2 KB a line); a line is tokenized again when
// it executes, into one reused buffer, except lines inside a .rept, whose
// tokens are kept for the later iterations (tokens_of).
enum class LineKind : uint8_t { skip, rept, endr, other };  // skip: blank, comment or lexer error

LineKind classify(const std::vector<Token>& t) {
  if (t.empty() || t[0].kind == TokenKind::end) return LineKind::skip;
  if (is_directive(t, "rept")) return LineKind::rept;
  if (is_directive(t, "endr")) return LineKind::endr;
  return LineKind::other;
}

struct Driver {
  AssemblyState state;
  DiagnosticList& diags;
  const SourceLines& lines;
  std::vector<LineKind> kinds;
  std::unordered_map<std::size_t, std::size_t> matching_endr;  // .rept line -> its .endr line (if any)
  std::vector<Token> toks;         // tokens of the line being executed
  // Tokens of lines run inside a .rept, lexed once for every iteration
  // (lexing depends on nothing but the text). Node-based: references stay valid.
  std::unordered_map<std::size_t, std::vector<Token>> rept_line_tokens;
  std::size_t cached_tokens = 0;
  std::vector<std::size_t> open_repts;  // lines of the .rept loops being executed, outermost first
  AssembleLimits limits;
  std::size_t max_tensors = 0;  // of the .nbin format (nbin::max_tensor_count)
  int64_t instructions = 0;
  int64_t rept_lines = 0;
  int64_t iterations = 0;
  bool stopped = false;

  // A resource limit (LANGUAGE.md 2.6) is reported once, where it was first
  // exceeded, and ends the assembly.
  void limit_exceeded(std::size_t line, int column, std::string message) {
    diags.error(static_cast<int>(line) + 1, column, std::move(message));
    stopped = true;
  }

  // Counts one more of a .rept limit's `what`; beyond the limit, reports it
  // at the outermost .rept being run (where the count must change) and stops.
  bool within_rept_limit(int64_t& counter, int64_t limit, const char* what) {
    if (++counter <= limit) return true;
    const std::size_t at = open_repts.front();
    tokenize_line(lines[at], toks);  // the caller returns at once: `toks` is free
    limit_exceeded(at, toks[0].column, ".rept expansion exceeds the assembler's limit of " + std::to_string(limit) + " " + what);
    return false;
  }

  void match_repts() {
    std::vector<std::size_t> open;
    for (std::size_t i = 0; i < kinds.size(); ++i) {
      if (kinds[i] == LineKind::rept) open.push_back(i);
      if (kinds[i] == LineKind::endr && !open.empty()) {
        matching_endr[open.back()] = i;
        open.pop_back();
      }
    }
  }

  // The tokens of line i (lexed without error in the first pass): in `toks`,
  // or kept from an earlier iteration of the .rept being run.
  const std::vector<Token>& tokens_of(std::size_t i) {
    if (open_repts.empty()) {
      tokenize_line(lines[i], toks);
      return toks;
    }
    if (auto it = rept_line_tokens.find(i); it != rept_line_tokens.end()) return it->second;
    if (cached_tokens < kMaxCachedTokens) {
      std::vector<Token>& kept = rept_line_tokens[i];
      tokenize_line(lines[i], kept);
      cached_tokens += kept.size();
      return kept;
    }
    tokenize_line(lines[i], toks);
    return toks;
  }

  // `t` holds the .rept line (it may be `toks`, which running the body overwrites).
  void execute_rept(std::size_t i, const std::vector<Token>& t) {
    if (open_repts.size() >= static_cast<std::size_t>(kMaxReptNesting))
      throw SourceError{t[0].column, ".rept nested more than " + std::to_string(kMaxReptNesting) + " deep"};
    TokenCursor cur{t, 1};
    const Token& var = cur.peek();
    if (var.kind != TokenKind::identifier) throw SourceError{var.column, "expected a variable name after .rept"};
    cur.next();
    if (!cur.accept(',')) throw SourceError{cur.peek().column, "expected ',' after the .rept variable"};
    const Token& count_token = cur.peek();
    int64_t count = require_integer(parse_expression(cur, state.scope()), count_token.column, "the .rept count");
    if (!cur.at_end()) throw SourceError{cur.peek().column, "unexpected '" + std::string(cur.peek().text) + "' after .rept"};
    if (count < 0 || count > kMaxReptCount)
      throw SourceError{count_token.column, ".rept count " + std::to_string(count) + " is out of range [0, " + std::to_string(kMaxReptCount) + "]"};
    const std::string var_name(var.text);
    const std::size_t body_end = matching_endr.at(i);
    open_repts.push_back(i);
    for (int64_t k = 0; k < count && !stopped; ++k) {
      // An empty body executes no line: iterations have their own limit.
      if (!within_rept_limit(iterations, limits.rept_iterations, "iterations")) break;
      state.rept_vars.emplace_back(var_name, ExprValue::integer(k));
      run(i + 1, body_end);
      state.rept_vars.pop_back();
    }
    open_repts.pop_back();
  }

  void execute_line(std::size_t i, const std::vector<Token>& t) {
    const int line = static_cast<int>(i) + 1;
    if (t[0].kind == TokenKind::directive) {
      const std::string_view d = t[0].text;
      if (d == "hbm" || d == "sbuf" || d == "psum") {
        if (state.program.tensors.size() >= max_tensors)
          return limit_exceeded(i, t[0].column, "too many tensors: a program declares at most " + std::to_string(max_tensors) +
                                                    " tensors (what the .nbin's " + std::to_string(std::countr_zero(max_tensors)) +
                                                    "-bit tensor fields can name)");
        state.body_started = true;
        parse_declaration(state, diags, t, line);
      } else if (d == "reg") {
        state.body_started = true;
        parse_register(state, t, line);
      } else {
        parse_directive(state, t, line);
      }
    } else {
      if (++instructions > limits.instructions)
        return limit_exceeded(i, t[0].column, "too many instructions: a program has at most " + std::to_string(limits.instructions) +
                                                  " instructions (each .rept iteration's copy counted)");
      parse_instruction(state, diags, t, line);
    }
  }

  // Executes lines [begin, end); a .rept runs its body and continues after its .endr.
  void run(std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end && !stopped; ++i) {
      if (diags.full()) {
        stopped = true;
        return;
      }
      if (kinds[i] == LineKind::skip) continue;
      const int line = static_cast<int>(i) + 1;
      const std::vector<Token>& t = tokens_of(i);
      if (!open_repts.empty() && !within_rept_limit(rept_lines, limits.rept_lines, "lines run by .rept bodies")) return;
      try {
        if (kinds[i] == LineKind::rept) {
          const auto match = matching_endr.find(i);
          if (match == matching_endr.end()) {
            // The rest would be read with the loop variable undefined: one error, not a cascade.
            diags.error(line, t[0].column, ".rept without a matching .endr");
            return;
          }
          const std::size_t after = match->second;
          try {
            execute_rept(i, t);
          } catch (const SourceError& e) {
            diags.error(line, e.column, e.message);
          }
          i = after;
          continue;
        }
        if (kinds[i] == LineKind::endr) {
          diags.error(line, t[0].column, ".endr without a matching .rept");
          continue;
        }
        execute_line(i, t);
      } catch (const SourceError& e) {
        diags.error(line, e.column, e.message);
      }
    }
  }

  void allocate() {
    std::vector<bool> ignore;
    for (const TensorSite& s : state.tensor_sites) ignore.push_back(s.poisoned);
    for (const AllocationFailure& f : allocate_tensors(state.spec, state.program, ignore)) {
      const TensorSite& site = state.tensor_sites[static_cast<std::size_t>(f.tensor)];
      diags.error(site.line, site.column, f.message);
    }
  }
};

}  // namespace

AssembleResult assemble(const Spec& spec, std::string_view source, const std::string& file_name) {
  return assemble(spec, source, file_name, nullptr);
}

AssembleResult assemble(const Spec& spec, std::string_view source, const std::string& file_name, InstructionSink* sink,
                        const AssembleLimits& limits, int cores) {
  if (source.size() > UINT32_MAX) {
    AssembleResult too_large;
    too_large.diagnostics.push_back(Diagnostic{file_name, 0, 0, "the source is larger than 4 GiB", "", 0});
    return too_large;
  }
  // First pass, as the lines are found: lexer errors, and which lines are
  // .rept / .endr / nothing.
  std::vector<LineKind> kinds;
  bool has_cores = false, has_core_sections = false;  // some line is .cores / .core
  std::vector<Token> first_pass_tokens;
  std::vector<std::pair<int, SourceError>> lexer_errors;
  const SourceLines lines(source, [&](std::size_t i, std::string_view line) {
    try {
      check_line_tokens(line, first_pass_tokens);
      kinds.push_back(classify(first_pass_tokens));
      has_cores = has_cores || is_directive(first_pass_tokens, "cores");
      has_core_sections = has_core_sections || is_directive(first_pass_tokens, "core");
    } catch (SourceError& e) {
      kinds.push_back(LineKind::skip);
      // Each on its own line, so distinct: beyond the cap the list ignores them.
      if (lexer_errors.size() <= kMaxErrors) {
        e.message = bounded_message(std::move(e.message));
        lexer_errors.emplace_back(static_cast<int>(i) + 1, std::move(e));
      }
    }
  });
  DiagnosticList diags(file_name, lines);
  for (auto& [line, e] : lexer_errors) diags.error(line, e.column, std::move(e.message));
  Driver driver{AssemblyState{spec}, diags, lines, std::move(kinds), {}, {}, {}, 0, {}, limits, nbin::max_tensor_count(spec), 0, 0, 0, false};
  driver.state.sink = sink;
  driver.state.program.arch = spec.default_arch;
  driver.state.program.nki = spec.default_nki;
  driver.state.program.file = file_name;
  driver.match_repts();
  AssemblyState& state = driver.state;
  state.requested_cores = cores;
  state.has_core_sections = has_core_sections;
  if (cores > 0 && !has_cores) {
    const ArchSpec& arch = spec.archs[static_cast<std::size_t>(state.program.arch)];
    if (cores > arch.max_cores) diags.error(0, 0, "--cores " + std::to_string(cores) + ": arch " + arch.name + " runs at most " + std::to_string(arch.max_cores));
    else state.set_cores(cores);
  }
  driver.run(0, lines.size());
  // LANGUAGE.md 2.7: the lines of a program without sections, once more for each other core.
  for (int32_t core = 1; state.spmd && core < core_count(state.program) && !driver.stopped && diags.empty(); ++core) {
    state.repeat = true;
    state.begin_core(core);
    state.next_loc.reset();
    driver.run(0, lines.size());
  }
  if (!driver.stopped && !diags.full()) {
    // Only of a program without other errors: a refused sendrecv would leave its peer unmet.
    if (const auto open = driver.state.sequencer.finish(); open && diags.empty()) diags.error(static_cast<int>(open->text_line), 1, open->message);
    const std::optional<MeetingFailure> f = driver.state.finish_cores();
    if (f && diags.empty()) diags.error(static_cast<int>(f->text_line), 1, f->message);
    driver.allocate();
  }

  AssembleResult result;
  result.diagnostics = diags.take();
  // Allocation errors come last in time but belong to their declarations' lines.
  std::stable_sort(result.diagnostics.begin(), result.diagnostics.end(), [](const Diagnostic& a, const Diagnostic& b) {
    if (a.line <= 0 || b.line <= 0) return a.line > 0 && b.line <= 0;  // the "too many" line stays last
    return a.line < b.line;
  });
  if (result.diagnostics.empty()) result.program = std::move(driver.state.program);
  return result;
}

}  // namespace nisa
