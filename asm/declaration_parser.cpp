// .hbm NAME DTYPE [d0, ...] ROLE [= INIT], .sbuf/.psum NAME DTYPE [P, f1, ...] [@ OFFSET]
// and .reg NAME (a sequencer register, SEMANTICS S17).
#include "diagnostics.hpp"
#include "line_parsers.hpp"
#include "operand_values.hpp"
#include "program_check.hpp"

namespace nisa {

namespace {

const Token& expect_identifier(TokenCursor& cur, std::string_view what) {
  const Token& t = cur.peek();
  if (t.kind != TokenKind::identifier)
    throw SourceError{t.column, "expected " + std::string(what) + (t.kind == TokenKind::end ? "" : ", got '" + std::string(t.text) + "'")};
  return cur.next();
}

void expect(TokenCursor& cur, char punct, std::string_view context) {
  if (!cur.accept(punct)) {
    const Token& t = cur.peek();
    throw SourceError{t.column, "expected '" + std::string(1, punct) + "' " + std::string(context) + (t.kind == TokenKind::end ? "" : ", got '" + std::string(t.text) + "'")};
  }
}

Dtype parse_dtype(const Spec& spec, TokenCursor& cur) {
  const Token& t = expect_identifier(cur, "a dtype");
  if (auto d = spec.find_dtype(t.text)) return *d;
  std::vector<std::string> names;
  for (const auto& d : spec.dtypes) {
    names.push_back(d.name);
    names.insert(names.end(), d.aliases.begin(), d.aliases.end());
  }
  throw SourceError{t.column, "unknown dtype '" + std::string(t.text) + "'" + did_you_mean(t.text, names)};
}

std::vector<int64_t> parse_shape(const AssemblyState& state, TokenCursor& cur) {
  expect(cur, '[', "before the shape");
  std::vector<int64_t> shape;
  while (true) {
    const Token& t = cur.peek();
    shape.push_back(require_integer(parse_expression(cur, state.scope()), t.column, "a shape dimension"));
    if (cur.accept(']')) return shape;
    expect(cur, ',', "or ']' in the shape");
  }
}

Role parse_role(TokenCursor& cur) {
  const Token& t = expect_identifier(cur, "a role (input, output, inout or scratch)");
  for (Role r : {Role::input, Role::output, Role::inout, Role::scratch})
    if (t.text == role_name(r)) return r;
  throw SourceError{t.column, "unknown role '" + std::string(t.text) + "'" + did_you_mean(t.text, {"input", "output", "inout", "scratch"}) +
                                  (closest_name(t.text, {"input", "output", "inout", "scratch"}).empty() ? " (input, output, inout or scratch)" : "")};
}

}  // namespace

void parse_declaration(AssemblyState& state, DiagnosticList& diags, const std::vector<Token>& tokens, int line) {
  TokenCursor cur{tokens, 0};
  const Token& directive = cur.next();
  TensorDecl t;
  t.memory = directive.text == "hbm" ? Memory::hbm : directive.text == "sbuf" ? Memory::sbuf : Memory::psum;
  // .loc N: a declaration records N like an instruction (LANGUAGE.md 2.1), so
  // that nisa dis can keep the lines of a core's declarations.
  t.line = state.next_loc ? *state.next_loc : static_cast<uint32_t>(line);
  if (state.next_loc && *state.next_loc < 0xFFFFFFFFu) ++*state.next_loc;
  // LANGUAGE.md 2.7: a .core section's tensors are that core's; without
  // sections, HBM tensors are shared and on-chip ones each core's.
  t.core = state.spmd && t.memory == Memory::hbm ? TensorDecl::kShared : state.current_core;
  const bool shared_again = state.repeat && t.memory == Memory::hbm;  // declared by the first reading
  TensorSite site{line, directive.column, false};
  try {
    const Token& name = expect_identifier(cur, "a tensor name");
    site.column = name.column;
    if (int prev = state.find_tensor(name.text); prev >= 0 && !shared_again)
      throw SourceError{name.column, "tensor '" + std::string(name.text) + "' is already declared at line " +
                                         std::to_string(state.tensor_sites[static_cast<std::size_t>(prev)].line)};
    if (state.constants.count(name.text)) throw SourceError{name.column, "'" + std::string(name.text) + "' is already an .equ constant"};
    // S17.1: tensors and registers share one namespace
    if (state.find_register(name.text) >= 0) throw SourceError{name.column, "'" + std::string(name.text) + "' is already a register"};
    t.name = name.text;
  } catch (const SourceError& e) {
    diags.error(line, e.column, e.message);
    return;  // without a name there is nothing to declare
  }
  // Past the name the tensor exists (poisoned on error), so later lines that use
  // it report their own problems rather than "unknown tensor".
  try {
    t.dtype = parse_dtype(state.spec, cur);
    t.shape = parse_shape(state, cur);
    if (t.memory == Memory::hbm) {
      t.role = parse_role(cur);
      if (cur.accept('=')) {
        const Token& v = cur.peek();
        if (v.kind == TokenKind::identifier && v.text == "iota") {
          cur.next();
          t.init = InitKind::iota;
        } else {
          t.init = InitKind::fill;
          t.init_value = scalar_operand(parse_expression(cur, state.scope()), dtype_is_int(t.dtype), v.column, "the INIT value");
        }
      }
    } else if (cur.accept('@')) {
      const Token& v = cur.peek();
      t.offset = require_integer(parse_expression(cur, state.scope()), v.column, "the offset");
      t.explicit_offset = true;
    }
    if (!cur.at_end()) throw SourceError{cur.peek().column, "unexpected '" + std::string(cur.peek().text) + "' after the declaration"};
  } catch (const SourceError& e) {
    diags.error(line, e.column, e.message);
    site.poisoned = true;
  }
  if (shared_again) {
    const int prev = state.find_tensor(t.name);
    const TensorDecl* first = prev >= 0 ? &state.program.tensors[static_cast<std::size_t>(prev)] : nullptr;
    if (!site.poisoned && (first == nullptr || first->dtype != t.dtype || first->shape != t.shape || first->role != t.role ||
                           first->init != t.init || !(first->init_value == t.init_value)))
      diags.error(line, site.column, "tensor '" + t.name + "' is declared differently for core " + std::to_string(state.current_core) +
                                         " than for core 0; an HBM tensor of a program without .core sections is one tensor every core shares");
    return;
  }
  if (state.spmd && t.memory == Memory::hbm)
    for (const TensorDecl& other : state.program.tensors)
      if (other.memory != Memory::hbm) {
        diags.error(line, site.column, "HBM tensor '" + t.name + "' after on-chip tensor '" + other.name +
                                           "': a program for several cores without .core sections declares its (shared) HBM tensors first");
        return;
      }
  const int index = static_cast<int>(state.program.tensors.size());
  if (t.shape.empty()) t.shape = t.memory == Memory::hbm ? std::vector<int64_t>{1} : std::vector<int64_t>{1, 1};
  state.program.tensors.push_back(std::move(t));
  state.add_tensor_name(state.program.tensors.back().name, index);
  if (!site.poisoned) {
    for (const CheckFailure& f : state.tensor_checker.check(state.spec, state.program, index)) {
      diags.error(line, site.column, f.message);
      site.poisoned = true;
    }
  }
  if (site.poisoned) {
    // Keep the rank (views of it still parse) but nothing that could overflow
    // the allocator's arithmetic.
    TensorDecl& bad = state.program.tensors.back();
    for (int64_t& d : bad.shape) d = 1;
    bad.offset = 0;
    bad.explicit_offset = true;
  }
  state.tensor_sites.push_back(site);
}

// .reg NAME (SEMANTICS S17): NKI's register_alloc.
void parse_register(AssemblyState& state, const std::vector<Token>& tokens, int line) {
  TokenCursor cur{tokens, 0};
  cur.next();
  const Token& name = expect_identifier(cur, "a register name");
  if (!cur.at_end()) throw SourceError{cur.peek().column, "unexpected '" + std::string(cur.peek().text) + "' after .reg"};
  const uint32_t recorded = state.next_loc ? *state.next_loc : static_cast<uint32_t>(line);
  if (state.next_loc && *state.next_loc < 0xFFFFFFFFu) ++*state.next_loc;
  if (const std::string why = state.add_register(name.text, recorded); !why.empty()) throw SourceError{name.column, why};
}

}  // namespace nisa
