#include "operand_values.hpp"

#include <cmath>
#include <iterator>
#include <limits>

#include "diagnostics.hpp"
#include "list_parser.hpp"

namespace nisa {

namespace {

std::string quoted(std::string_view s) {
  std::string q(1, '\'');
  q += s;
  q += '\'';
  return q;
}

// What a value's first token looks like, for "wrong kind" messages.
std::string describe_value(const AssemblyState& state, const Token& t) {
  if (t.kind == TokenKind::identifier) {
    if (state.find_tensor(t.text) >= 0) return "tensor '" + std::string(t.text) + "'";
    if (t.text == "true" || t.text == "false") return "bool " + std::string(t.text);
    return "'" + std::string(t.text) + "'";
  }
  if (t.kind == TokenKind::integer || t.kind == TokenKind::real || t.is('-') || t.is('(')) return "a number";
  if (t.kind == TokenKind::string) return "a string";
  if (t.kind == TokenKind::end) return "nothing";
  if (t.is('[')) return "a list";
  return "'" + std::string(t.text) + "'";
}

int64_t slice_bound(const AssemblyState& state, TokenCursor& cur, std::string_view what) {
  const Token& t = cur.peek();
  if (t.kind == TokenKind::integer && !is_arithmetic_operator(cur.peek_second())) {
    cur.next();  // a lone integer literal (never negative): the common case
    return t.integer;
  }
  int64_t v = require_integer(parse_expression(cur, state.scope()), t.column, what);
  if (v < 0) throw SourceError{t.column, std::string(what) + " " + std::to_string(v) + " is negative"};
  return v;
}

// One entry of NAME[...]: a:b, a:, :b, a:b:step, :, or a single index a.
// The punctuation character of a token, or 0.
char punct_of(const Token& t) { return t.kind == TokenKind::punct ? t.text[0] : '\0'; }

DimSlice parse_slice(const AssemblyState& state, TokenCursor& cur, int64_t size) {
  int64_t start = 0, stop = size, step = 1;
  if (punct_of(cur.peek()) != ':') {
    start = slice_bound(state, cur, "slice start");
    if (punct_of(cur.peek()) != ':') return DimSlice{start, 1, 1};  // a single index means a:a+1
  }
  cur.next();  // ':'
  const Token& after = cur.peek();
  const char p = punct_of(after);
  if (!(p == ',' || p == ']' || p == ':' || after.kind == TokenKind::end)) stop = slice_bound(state, cur, "slice stop");
  if (cur.accept(':')) {
    const Token& t = cur.peek();
    step = require_integer(parse_expression(cur, state.scope()), t.column, "slice step");
    if (step < 1) throw SourceError{t.column, "slice step " + std::to_string(step) + " must be positive"};
  }
  if (stop <= start) throw SourceError{cur.peek().column, "empty slice " + std::to_string(start) + ":" + std::to_string(stop)};
  return DimSlice{start, (stop - start - 1) / step + 1, step};
}

// `[e, ...]` or `[[e, e], ...]` by the spec's entry size; a flat list may also
// be written as one bare integer (`axis=1` is `axis=[1]`, as NKI takes an int
// or a list). Counts and item ranges are the checker's; int32 storage is checked here.
void resolve_list(const AssemblyState& state, const OperandSpec& os, TokenCursor& cur, Operand& o) {
  const Token& first = cur.peek();
  const int entry_size = static_cast<int>(os.list_items.size());
  const std::string what = quoted(os.name);
  std::vector<int64_t> values;
  if (!first.is('[')) {
    const bool names_no_number =
        first.kind == TokenKind::identifier && (state.find_tensor(first.text) >= 0 || first.text == "true" || first.text == "false");
    if (entry_size != 1 || names_no_number)
      throw SourceError{first.column, what + " takes a list like " + (entry_size == 1 ? "[1, 2]" : "[[1, 64]]") + ", got " + describe_value(state, first)};
    values.push_back(require_integer(parse_expression(cur, state.scope()), first.column, what));
  } else {
    parse_integer_list(cur, state.scope(), entry_size, values, what);
  }
  o.state = OperandState::list;
  for (int64_t v : values) {
    if (v < std::numeric_limits<int32_t>::min() || v > std::numeric_limits<int32_t>::max())
      throw SourceError{first.column, what + " element " + std::to_string(v) + " is out of the int32 range"};
    o.list.push_back(static_cast<int32_t>(v));
  }
}

// `[view, view, ...]` (dma_compute's srcs): each entry is read as a tensor
// operand; the count is checked against the spec with the other checks.
void resolve_tensor_list(const AssemblyState& state, const OperandSpec& os, TokenCursor& cur, Operand& o) {
  const std::string what = quoted(os.name);
  if (!cur.accept('[')) throw SourceError{cur.peek().column, what + " takes a list of tensors like [a, b], got " + describe_value(state, cur.peek())};
  o.state = OperandState::tensor_list;
  if (cur.accept(']')) return;
  while (true) {
    const Token& at = cur.peek();
    const int tensor = at.kind == TokenKind::identifier ? state.find_tensor(at.text) : -1;
    if (tensor < 0 && !(at.kind == TokenKind::identifier && find_pattern_tensor(state, at.text) >= 0))
      throw SourceError{at.column, what + " takes a list of tensors, got " + describe_value(state, at) +
                                       (at.kind == TokenKind::identifier ? did_you_mean(at.text, state.tensor_names()) : "")};
    o.views.emplace_back();
    parse_tensor_view(state, cur, o.views.back(), tensor);
    if (cur.accept(']')) return;
    if (!cur.accept(',')) throw SourceError{cur.peek().column, "expected ',' or ']' in the list " + what};
  }
}

}  // namespace

float round_to_float32(double v) {
  constexpr double max = static_cast<double>(std::numeric_limits<float>::max());
  // Beyond fp32.max: RNE keeps fp32.max below the halfway point to 2^128 (fp32.max
  // has an odd significand, so the tie itself goes to infinity).
  constexpr double halfway = max + 0x1p103;
  if (std::isfinite(v) && std::fabs(v) > max) {
    float m = std::fabs(v) < halfway ? std::numeric_limits<float>::max() : std::numeric_limits<float>::infinity();
    return v < 0 ? -m : m;
  }
  return static_cast<float>(v);
}

void string_operand(AssemblyState& state, const Token& t, Operand& o) {
  if (const std::size_t bad = first_bad_string_byte(t.text); bad != std::string_view::npos) {
    static constexpr char hex[] = "0123456789abcdef";
    const auto byte = static_cast<unsigned char>(t.text[bad]);
    throw SourceError{t.column, std::string("a string holds no control character (byte 0x") + hex[byte >> 4] +
                                    hex[byte & 15] + " at column " + std::to_string(t.column + 1 + static_cast<int>(bad)) + ")"};
  }
  o.state = OperandState::string;
  o.integer = state.intern_string(t.text);
}

Operand scalar_operand(const ExprValue& v, bool as_integer, int column, std::string_view what) {
  Operand o;
  if (as_integer) {
    int64_t i = 0;
    if (v.is_int) {
      i = v.i;
    } else {
      if (!std::isfinite(v.f) || std::trunc(v.f) != v.f || std::fabs(v.f) > 4e18)
        throw SourceError{column, std::string(what) + " must be an exact integer, got " + scalar_text(round_to_float32(v.f))};
      i = static_cast<int64_t>(v.f);
    }
    if (i < std::numeric_limits<int32_t>::min() || i > std::numeric_limits<int32_t>::max())
      throw SourceError{column, std::string(what) + " = " + std::to_string(i) + " is out of the int32 range"};
    o.state = OperandState::integer;
    o.integer = i;
    return o;
  }
  o.state = OperandState::scalar;
  // LANGUAGE.md 2.3: scalars are rounded to float32 (RNE) first.
  o.scalar = v.has_literal_f32 ? v.literal_f32 : v.is_int ? static_cast<float>(v.i) : round_to_float32(v.f);
  return o;
}

void reset_operand(Operand& out) {
  out.state = OperandState::absent;
  out.view.tensor = -1;
  out.view.dims.clear();
  out.view.is_pattern = false;
  out.view.offset = 0;
  out.view.pattern.clear();
  out.view.indirect = IndirectKind::none;
  out.view.indirect_dim = 0;
  out.view.index_stride = 0;
  out.view.index_register = -1;
  out.view.index.clear();
  out.scalar = 0;
  out.integer = 0;
  out.list.clear();
  out.views.clear();
}

int find_pattern_tensor(const AssemblyState& state, std::string_view name) {
  constexpr std::string_view suffix = ".ap";
  if (name.size() <= suffix.size() || !name.ends_with(suffix)) return -1;
  return state.find_tensor(name.substr(0, name.size() - suffix.size()));
}

namespace {

int64_t pattern_integer(const AssemblyState& state, TokenCursor& cur, std::string_view what) {
  const Token& t = cur.peek();
  return require_integer(parse_expression(cur, state.scope()), t.column, what);
}

void expect(TokenCursor& cur, char punct, std::string_view where) {
  if (cur.accept(punct)) return;
  std::string message = "expected '";
  message += punct;
  message += "' ";
  message += where;
  if (cur.at_end()) {
    message += ", got the end of the value";
  } else {
    message += ", got ";
    message += quoted(cur.peek().text);
  }
  throw SourceError{cur.peek().column, message};
}

// [[step, num], ...]: any integer steps, positive nums (the checker bounds them).
void parse_pattern_list(const AssemblyState& state, TokenCursor& cur, std::vector<PatternDim>& pattern) {
  expect(cur, '[', "to open the pattern list");
  pattern.clear();
  do {
    expect(cur, '[', "to open a [step, num] pair");
    PatternDim d;
    d.step = pattern_integer(state, cur, "pattern step");
    expect(cur, ',', "between step and num");
    const Token& num = cur.peek();
    d.num = pattern_integer(state, cur, "pattern num");
    if (d.num < 1) throw SourceError{num.column, "pattern num " + std::to_string(d.num) + " must be positive"};
    expect(cur, ']', "to close a [step, num] pair");
    pattern.push_back(d);
  } while (cur.accept(','));
  expect(cur, ']', "to close the pattern list");
}

// NAME.ap(pattern=[[step, num], ...], offset=K) (NKI 0.6 NkiTensor.ap;
// LANGUAGE.md 2.3): keywords optional, positional order pattern then offset.
// NKI's dynamic forms take keywords: vector_offset=IDX or scalar_offset=IDX
// (IDX a tensor view: a slice or a static .ap), indirect_dim=D (nki-aps
// "Dynamic Access"), and nisa's index_stride=S (the elements an index step
// moves, when the NKI view was not the declared tensor).
void parse_access_pattern(const AssemblyState& state, TokenCursor& cur, TensorView& v) {
  const Token& open = cur.peek();
  expect(cur, '(', "after '.ap'");
  v.dims.clear();
  v.is_pattern = true;
  v.offset = 0;
  v.pattern.clear();
  v.indirect = IndirectKind::none;
  v.indirect_dim = 0;
  v.index_stride = 0;
  v.index_register = -1;
  v.index.clear();
  static constexpr std::string_view names[] = {"pattern",      "offset",       "vector_offset", "scalar_offset",
                                                "indirect_dim", "index_stride", "indirect"};
  constexpr int kinds = static_cast<int>(std::size(names));
  bool seen[kinds] = {};
  int dynamic_only_column[2] = {-1, -1};  // indirect_dim, index_stride: only with an index
  for (int position = 0; !cur.accept(')'); ++position) {
    if (position > 0) expect(cur, ',', cur.at_end() ? "or ')' to close .ap(" : "between the arguments of .ap");
    const Token& at = cur.peek();
    int which = position;
    if (at.kind == TokenKind::identifier && cur.peek_second().is('=')) {
      which = -1;
      for (int k = 0; k < kinds; ++k)
        if (at.text == names[k]) which = k;
      if (which < 0)
        throw SourceError{at.column, "unknown argument '" + std::string(at.text) +
                                         "' of .ap (accepted: pattern, offset, vector_offset, scalar_offset, indirect_dim, index_stride, indirect)"};
      cur.next();
      cur.next();
    } else if (which > 1) {
      throw SourceError{at.column, ".ap takes two positional arguments, pattern and offset; name the others (vector_offset=...)"};
    }
    if (seen[which]) throw SourceError{at.column, std::string(names[which]) + " given twice"};
    seen[which] = true;
    if (which == 0) {
      parse_pattern_list(state, cur, v.pattern);
    } else if (which == 1) {
      const Token& k = cur.peek();
      v.offset = pattern_integer(state, cur, "offset");
      if (v.offset < 0) throw SourceError{k.column, "offset " + std::to_string(v.offset) + " is negative"};
    } else if (which == 4) {
      const Token& k = cur.peek();
      dynamic_only_column[0] = k.column;
      const int64_t d = pattern_integer(state, cur, "indirect_dim");
      if (d < 0 || d > 7) throw SourceError{k.column, "indirect_dim " + std::to_string(d) + " must be a dimension of the tensor (0 to 7)"};
      v.indirect_dim = static_cast<int32_t>(d);
    } else if (which == 5) {
      const Token& k = cur.peek();
      dynamic_only_column[1] = k.column;
      v.index_stride = pattern_integer(state, cur, "index_stride");
      if (v.index_stride < 1) throw SourceError{k.column, "index_stride " + std::to_string(v.index_stride) + " must be positive"};
    } else {
      if (v.indirect != IndirectKind::none)
        throw SourceError{at.column, "vector_offset, scalar_offset and indirect are mutually exclusive (NKI 0.6)"};
      const Token& idx = cur.peek();
      // scalar_offset=REG (S17.3): a register's value moves the view.
      if (const int reg = idx.kind == TokenKind::identifier ? state.find_register(idx.text) : -1; reg >= 0) {
        if (which != 3) throw SourceError{idx.column, std::string(names[which]) + " takes an index tensor; only scalar_offset may name a register"};
        cur.next();
        v.indirect = IndirectKind::scalar;
        v.index_register = reg;
        continue;
      }
      if (idx.kind != TokenKind::identifier || (state.find_tensor(idx.text) < 0 && find_pattern_tensor(state, idx.text) < 0))
        throw SourceError{idx.column, std::string(names[which]) + " takes an index tensor or its .ap(...) view, got " + quoted(idx.text)};
      // indirect=IDX: NKI 0.6 NkiTensor.indirect(IDX), Tensor Indirection on
      // the pattern's free dimension (docs/LANGUAGE.md 2.3).
      v.indirect = which == 2 ? IndirectKind::vector : which == 3 ? IndirectKind::scalar : IndirectKind::tensor;
      if (which == 6) v.indirect_dim = 1;
      v.index.resize(1);
      parse_tensor_view(state, cur, v.index[0], -1);
    }
  }
  if (!seen[0]) throw SourceError{open.column, ".ap needs a pattern: NAME.ap(pattern=[[step, num], ...], offset=K)"};
  for (int k = 0; k < 2; ++k)
    if (seen[4 + k] && (v.indirect == IndirectKind::none || v.indirect == IndirectKind::tensor))
      throw SourceError{dynamic_only_column[k], std::string(names[4 + k]) + " needs vector_offset or scalar_offset"};
}

}  // namespace

void parse_tensor_view(const AssemblyState& state, TokenCursor& cur, TensorView& v, int tensor) {
  const Token& name = cur.next();
  const int pattern_index = find_pattern_tensor(state, name.text);
  if (pattern_index >= 0) {
    v.tensor = pattern_index;
    return parse_access_pattern(state, cur, v);
  }
  const int index = tensor >= 0 ? tensor : state.find_tensor(name.text);
  const TensorDecl& t = state.program.tensors[static_cast<std::size_t>(index)];
  v.is_pattern = false;
  v.offset = 0;
  v.pattern.clear();
  v.indirect = IndirectKind::none;
  v.indirect_dim = 0;
  v.index_stride = 0;
  v.index_register = -1;
  v.index.clear();
  // The whole tensor, then the slices given replace their dimensions (S1.4).
  v.tensor = index;
  v.dims.resize(t.shape.size());
  for (std::size_t d = 0; d < t.shape.size(); ++d) v.dims[d] = DimSlice{0, t.shape[d], 1};
  if (!cur.accept('[')) return;
  std::size_t dim = 0;
  if (cur.accept(']')) return;
  while (true) {
    if (dim >= t.shape.size())
      throw SourceError{cur.peek().column, "tensor '" + t.name + "' has " + std::to_string(t.shape.size()) + " dimensions, got more slices"};
    v.dims[dim] = parse_slice(state, cur, t.shape[dim]);
    ++dim;
    if (cur.accept(']')) break;
    if (!cur.accept(',')) throw SourceError{cur.peek().column, "expected ',' or ']' in the slices of '" + t.name + "'"};
  }
}

void set_default_operand(const AssemblyState& state, const InstructionSpec& ins, int index, const std::vector<Operand>& earlier, Operand& o) {
  const OperandSpec& os = ins.operands[static_cast<std::size_t>(index)];
  reset_operand(o);
  if (!os.default_value) return;
  const DefaultValue& d = *os.default_value;
  switch (os.kind) {
    case OperandKind::tensor: break;
    case OperandKind::scalar:
    case OperandKind::tensor_or_scalar: {
      if (scalar_is_integer(state.program.tensors, ins, earlier, index)) {
        o.state = OperandState::integer;
        o.integer = static_cast<int64_t>(d.number);
      } else {
        o.state = OperandState::scalar;
        o.scalar = static_cast<float>(d.number);
      }
      break;
    }
    case OperandKind::enumeration:
      o.state = OperandState::enumerated;
      o.integer = d.enum_index;
      break;
    case OperandKind::boolean:
      o.state = OperandState::boolean;
      o.integer = d.boolean ? 1 : 0;
      break;
    case OperandKind::integer:
    case OperandKind::reg_or_int:  // a default is the integer form
      o.state = OperandState::integer;
      o.integer = static_cast<int64_t>(d.number);
      break;
    case OperandKind::list:
    case OperandKind::tensor_list:
    case OperandKind::string:
    case OperandKind::reg: break;  // never has a default
  }
}

void resolve_operand(AssemblyState& state, const InstructionSpec& ins, int index, const std::vector<Operand>& earlier, TokenCursor& cur,
                     Operand& o) {
  const OperandSpec& os = ins.operands[static_cast<std::size_t>(index)];
  const std::string_view key_name = os.name;
  auto key = [&] { return quoted(key_name); };  // for messages only
  const Token& first = cur.peek();
  const int tensor = first.kind == TokenKind::identifier ? state.find_tensor(first.text) : -1;
  const bool names_tensor = tensor >= 0 || (first.kind == TokenKind::identifier && find_pattern_tensor(state, first.text) >= 0);
  reset_operand(o);
  auto unknown_tensor = [&](const std::vector<std::string>& extra) {
    std::vector<std::string> names = state.tensor_names();
    names.insert(names.end(), extra.begin(), extra.end());
    const std::string note = state.other_core_note(first.text);
    return SourceError{first.column, "unknown tensor '" + std::string(first.text) + "'" + (note.empty() ? did_you_mean(first.text, names) : note)};
  };
  auto is_known_name = [&](std::string_view n) {
    return state.scope().find(n).has_value() || n == "inf" || n == "nan" || n == "fp32.min" || n == "fp32.max";
  };
  auto scalar = [&] {
    const bool as_int = scalar_is_integer(state.program.tensors, ins, earlier, index);
    const Operand v = scalar_operand(parse_expression(cur, state.scope()), as_int, first.column, key());
    o.state = v.state;
    o.scalar = v.scalar;
    o.integer = v.integer;
  };

  switch (os.kind) {
    case OperandKind::tensor:
      if (!names_tensor) {
        if (first.kind == TokenKind::identifier && !is_known_name(first.text) && first.text != "true" && first.text != "false") throw unknown_tensor({});
        throw SourceError{first.column, key() + " takes a tensor, got " + describe_value(state, first)};
      }
      o.state = OperandState::tensor;
      parse_tensor_view(state, cur, o.view, tensor);
      break;
    case OperandKind::tensor_or_scalar:
      if (names_tensor) {
        o.state = OperandState::tensor;
        parse_tensor_view(state, cur, o.view, tensor);
      } else {
        if (first.kind == TokenKind::identifier && !is_known_name(first.text)) throw unknown_tensor(state.scope().names());
        scalar();
      }
      break;
    case OperandKind::scalar:
      if (names_tensor || first.text == "true" || first.text == "false")
        throw SourceError{first.column, key() + " takes a scalar, got " + describe_value(state, first)};
      scalar();
      break;
    case OperandKind::enumeration: {
      const EnumSpec& es = state.spec.enums[static_cast<std::size_t>(os.enum_id)];
      if (first.kind != TokenKind::identifier || names_tensor)
        throw SourceError{first.column, key() + " takes a value of enum " + es.name + ", got " + describe_value(state, first)};
      cur.next();
      int v = es.find(first.text);
      if (v < 0) {
        std::vector<std::string> names;
        for (const auto& ev : es.values) {
          names.push_back(ev.name);
          names.insert(names.end(), ev.aliases.begin(), ev.aliases.end());
        }
        // The values this operand accepts (its spec's allowed subset), by name.
        std::string accepted;
        for (std::size_t ev = 0; ev < es.values.size(); ++ev)
          if (os.allows_enum_value(static_cast<int>(ev))) {
            if (!accepted.empty()) accepted += ", ";
            accepted += es.values[ev].name;
          }
        throw SourceError{first.column, "unknown " + es.name + " value '" + std::string(first.text) + "' for " + key() +
                                            did_you_mean(first.text, names) + " (accepted: " + accepted + ")"};
      }
      o.state = OperandState::enumerated;
      o.integer = v;
      break;
    }
    case OperandKind::boolean:
      if (first.kind != TokenKind::identifier || (first.text != "true" && first.text != "false"))
        throw SourceError{first.column, key() + " takes true or false, got " + describe_value(state, first)};
      cur.next();
      o.state = OperandState::boolean;
      o.integer = first.text == "true" ? 1 : 0;
      break;
    case OperandKind::integer:
      if (names_tensor || first.text == "true" || first.text == "false")
        throw SourceError{first.column, key() + " takes an integer, got " + describe_value(state, first)};
      o.state = OperandState::integer;
      o.integer = require_integer(parse_expression(cur, state.scope()), first.column, key());
      break;
    case OperandKind::list:
      resolve_list(state, os, cur, o);
      break;
    case OperandKind::tensor_list:
      resolve_tensor_list(state, os, cur, o);
      break;
    case OperandKind::reg:
    case OperandKind::reg_or_int: {  // S17: a register declared with .reg (or, reg_or_int, an integer)
      const int reg = first.kind == TokenKind::identifier ? state.find_register(first.text) : -1;
      if (reg >= 0) {
        cur.next();
        o.state = OperandState::reg;
        o.integer = reg;
      } else if (os.kind == OperandKind::reg_or_int && !names_tensor && first.text != "true" && first.text != "false" &&
                 (first.kind != TokenKind::identifier || is_known_name(first.text))) {
        o.state = OperandState::integer;
        o.integer = require_integer(parse_expression(cur, state.scope()), first.column, key());
      } else if (first.kind == TokenKind::identifier && !names_tensor && !is_known_name(first.text)) {
        throw SourceError{first.column, "unknown register '" + std::string(first.text) + "' (declare it with .reg " + std::string(first.text) + ")"};
      } else {
        throw SourceError{first.column, key() + " takes a register" + (os.kind == OperandKind::reg_or_int ? " or an integer" : "") +
                                            ", got " + describe_value(state, first)};
      }
      break;
    }
    case OperandKind::string: {  // "text": one line, no '"' (the lexer ends it there), no control character
      if (first.kind != TokenKind::string)
        throw SourceError{first.column, key() + " takes a quoted string (\"...\"), got " + describe_value(state, first)};
      cur.next();
      string_operand(state, first, o);
      break;
    }
  }
  if (!cur.at_end()) throw SourceError{cur.peek().column, "unexpected '" + std::string(cur.peek().text) + "' after the value of " + key()};
}

}  // namespace nisa
