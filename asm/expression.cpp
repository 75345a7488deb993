#include "expression.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

#include "diagnostics.hpp"

namespace nisa {

std::optional<ExprValue> NameScope::find(std::string_view name) const {
  if (rept_vars)
    for (auto it = rept_vars->rbegin(); it != rept_vars->rend(); ++it)
      if (it->first == name) return it->second;
  if (constants) {
    auto it = constants->find(name);
    if (it != constants->end()) return it->second;
  }
  return std::nullopt;
}

std::vector<std::string> NameScope::names() const {
  std::vector<std::string> out;
  if (rept_vars)
    for (const auto& [n, v] : *rept_vars) out.push_back(n);
  if (constants)
    for (const auto& [n, v] : *constants) out.push_back(n);
  return out;
}

namespace {

// An integer or real literal token's value.
ExprValue number_value(const Token& t) {
  if (t.kind == TokenKind::integer) return ExprValue::integer(t.integer);
  ExprValue v = ExprValue::real(t.real);
  v.has_literal_f32 = true;
  v.literal_f32 = real_literal_f32(t.text);
  return v;
}


std::optional<ExprValue> named_constant(std::string_view name) {
  if (name == "inf") return ExprValue::real(std::numeric_limits<double>::infinity());
  if (name == "nan") return ExprValue::real(std::numeric_limits<double>::quiet_NaN());
  // S2.4: fp32.min is the most negative finite float32 (0xFF7FFFFF).
  if (name == "fp32.min") return ExprValue::real(static_cast<double>(std::numeric_limits<float>::lowest()));
  if (name == "fp32.max") return ExprValue::real(static_cast<double>(std::numeric_limits<float>::max()));
  return std::nullopt;
}

// Resource limit: parentheses and unary signs nest at most this deep, so a
// pathological line ends with an error instead of a stack overflow.
constexpr int kMaxExpressionNesting = 256;

struct ExpressionParser {
  TokenCursor& cur;
  const NameScope& scope;
  int depth = 0;

  // Counts one level of recursion for the duration of a scope.
  struct Nest {
    int& depth;
    Nest(int& d, int column) : depth(d) {
      if (++depth > kMaxExpressionNesting)
        throw SourceError{column, "expression nested more than " + std::to_string(kMaxExpressionNesting) + " deep"};
    }
    ~Nest() { --depth; }
    Nest(const Nest&) = delete;
    Nest& operator=(const Nest&) = delete;
  };

  ExprValue sum() {
    ExprValue v = product();
    while (cur.peek().is('+') || cur.peek().is('-')) {
      const Token& op = cur.next();
      v = apply(op, v, product());
    }
    return v;
  }

  ExprValue product() {
    ExprValue v = unary();
    while (cur.peek().is('*') || cur.peek().is('/') || cur.peek().is('%')) {
      const Token& op = cur.next();
      v = apply(op, v, unary());
    }
    return v;
  }

  ExprValue unary() {
    const Nest nest(depth, cur.peek().column);
    if (cur.peek().is('-')) {
      const Token& op = cur.next();
      ExprValue v = unary();
      if (!v.is_int) {
        ExprValue r = ExprValue::real(-v.f);
        r.has_literal_f32 = v.has_literal_f32;
        r.literal_f32 = -v.literal_f32;
        return r;
      }
      if (v.i == std::numeric_limits<int64_t>::min()) throw SourceError{op.column, "integer overflow in negation"};
      return ExprValue::integer(-v.i);
    }
    if (cur.peek().is('+')) {
      cur.next();
      return unary();
    }
    return primary();
  }

  ExprValue primary() {
    const Token& t = cur.peek();
    switch (t.kind) {
      case TokenKind::integer:
      case TokenKind::real: cur.next(); return number_value(t);
      case TokenKind::identifier: {
        cur.next();
        if (auto c = named_constant(t.text)) return *c;
        if (auto v = scope.find(t.text)) return *v;
        std::vector<std::string> names = scope.names();
        for (const char* n : {"inf", "nan", "fp32.min", "fp32.max"}) names.emplace_back(n);
        throw SourceError{t.column, "unknown name '" + std::string(t.text) + "'" +
                                        (t.text == "core" ? " (the core number of a program for several cores: .cores N or --cores N; LANGUAGE.md 2.7)"
                                                          : did_you_mean(t.text, names))};
      }
      case TokenKind::punct:
        if (t.is('(')) {
          cur.next();
          ExprValue v = sum();
          if (!cur.accept(')')) throw SourceError{cur.peek().column, "expected ')'"};
          return v;
        }
        break;
      default: break;
    }
    if (t.kind == TokenKind::end) throw SourceError{t.column, "expected an expression"};
    throw SourceError{t.column, "expected an expression, got '" + std::string(t.text) + "'"};
  }

  static ExprValue apply(const Token& op, const ExprValue& a, const ExprValue& b) {
    char c = op.text[0];
    if (a.is_int && b.is_int) {
      int64_t r = 0;
      bool overflow = false;
      switch (c) {
        case '+': overflow = __builtin_add_overflow(a.i, b.i, &r); break;
        case '-': overflow = __builtin_sub_overflow(a.i, b.i, &r); break;
        case '*': overflow = __builtin_mul_overflow(a.i, b.i, &r); break;
        case '/':
        case '%':
          if (b.i == 0) throw SourceError{op.column, std::string("integer ") + (c == '/' ? "division" : "remainder") + " by zero"};
          if (a.i == std::numeric_limits<int64_t>::min() && b.i == -1) overflow = true;
          else r = c == '/' ? a.i / b.i : a.i % b.i;  // C: truncate toward zero, remainder takes the dividend's sign
          break;
      }
      if (overflow) throw SourceError{op.column, "integer overflow in '" + std::string(op.text) + "'"};
      return ExprValue::integer(r);
    }
    double x = a.as_double(), y = b.as_double();
    switch (c) {
      case '+': return ExprValue::real(x + y);
      case '-': return ExprValue::real(x - y);
      case '*': return ExprValue::real(x * y);
      case '/': return ExprValue::real(x / y);
      default: return ExprValue::real(std::fmod(x, y));
    }
  }
};

}  // namespace

ExprValue parse_expression(TokenCursor& cur, const NameScope& scope) {
  // Most expressions are one number (slice bounds, scalars): the same value
  // as the full parse gives, without it.
  if (const Token& t = cur.peek(); (t.kind == TokenKind::integer || t.kind == TokenKind::real) && !is_arithmetic_operator(cur.peek_second())) {
    cur.next();
    return number_value(t);
  }
  ExpressionParser p{cur, scope, 0};
  return p.sum();
}

int64_t require_integer(const ExprValue& v, int column, std::string_view what) {
  if (v.is_int) return v.i;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", v.f);
  throw SourceError{column, std::string(what) + " must be an integer, got " + buf};
}

std::string scalar_text(float v) {
  if (v == std::numeric_limits<float>::lowest()) return "fp32.min";
  if (v == std::numeric_limits<float>::max()) return "fp32.max";
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[64];
  for (int precision = 1; precision <= 9; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, static_cast<double>(v));
    if (std::strtof(buf, nullptr) == v) break;
  }
  return buf;
}

}  // namespace nisa
