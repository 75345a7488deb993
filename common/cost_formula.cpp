// Recursive-descent compiler of cost formulas to postfix, and the postfix
// evaluator (a fixed-size stack: formulas are a few tokens long).
#include "cost_formula.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>

namespace nisa {

namespace {

constexpr std::size_t kMaxStack = 32;

class FormulaParser {
 public:
  FormulaParser(std::string_view text, const std::vector<std::pair<std::string, double>>& constants)
      : text_(text), constants_(constants) {}

  CostFormula parse() {
    CostFormula f;
    f.text = std::string(text_);
    expression(f.code);
    skip_space();
    if (pos_ != text_.size()) fail("unexpected '" + std::string(1, text_[pos_]) + "'");
    if (f.code.empty()) fail("empty formula");
    return f;
  }

 private:
  std::string_view text_;
  const std::vector<std::pair<std::string, double>>& constants_;
  std::size_t pos_ = 0;
  std::size_t depth_ = 0;

  [[noreturn]] void fail(const std::string& why) const {
    throw CostFormulaError("cost formula \"" + std::string(text_) + "\" at offset " + std::to_string(pos_) + ": " + why);
  }
  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool accept(char c) {
    skip_space();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }

  void expression(std::vector<CostFormula::Step>& out) {
    if (++depth_ > kMaxStack) fail("nested too deeply");
    term(out);
    for (;;) {
      if (accept('+')) { term(out); out.push_back({CostFormula::Op::add, 0, 0}); }
      else if (accept('-')) { term(out); out.push_back({CostFormula::Op::sub, 0, 0}); }
      else break;
    }
    --depth_;
  }
  void term(std::vector<CostFormula::Step>& out) {
    factor(out);
    for (;;) {
      if (accept('*')) { factor(out); out.push_back({CostFormula::Op::mul, 0, 0}); }
      else if (accept('/')) { factor(out); out.push_back({CostFormula::Op::div, 0, 0}); }
      else break;
    }
  }
  void factor(std::vector<CostFormula::Step>& out) {
    skip_space();
    if (accept('-')) {
      if (++depth_ > kMaxStack) fail("nested too deeply");
      factor(out);
      --depth_;
      out.push_back({CostFormula::Op::neg, 0, 0});
      return;
    }
    if (accept('(')) {
      expression(out);
      if (!accept(')')) fail("expected ')'");
      return;
    }
    if (pos_ >= text_.size()) fail("unexpected end");
    const char c = text_[pos_];
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') {
      double v = 0;
      auto [end, ec] = std::from_chars(text_.data() + pos_, text_.data() + text_.size(), v);
      if (ec != std::errc()) fail("bad number");
      pos_ = static_cast<std::size_t>(end - text_.data());
      out.push_back({CostFormula::Op::number, v, 0});
      return;
    }
    if (!(std::isalpha(static_cast<unsigned char>(c)) || c == '_')) fail("unexpected '" + std::string(1, c) + "'");
    const std::size_t start = pos_;
    while (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_')) ++pos_;
    const std::string name(text_.substr(start, pos_ - start));
    if (name == "max" || name == "min") {
      if (!accept('(')) fail("expected '(' after " + name);
      uint32_t arity = 0;
      do {
        expression(out);
        ++arity;
      } while (accept(','));
      if (!accept(')')) fail("expected ')' or ','");
      out.push_back({name == "max" ? CostFormula::Op::max : CostFormula::Op::min, 0, arity});
      return;
    }
    if (name == "N") return out.push_back({CostFormula::Op::n, 0, 0});
    if (name == "BYTES") return out.push_back({CostFormula::Op::bytes, 0, 0});
    if (name == "P") return out.push_back({CostFormula::Op::partitions, 0, 0});
    for (const auto& [k, v] : constants_)
      if (k == name) return out.push_back({CostFormula::Op::number, v, 0});
    pos_ = start;
    fail("unknown name \"" + name + "\" (N, BYTES, P, max, min or a cost constant)");
  }
};

// Largest stack the postfix program reaches; rejects programs that would overflow.
std::size_t stack_need(const std::vector<CostFormula::Step>& code) {
  std::size_t depth = 0, most = 0;
  for (const CostFormula::Step& s : code) {
    switch (s.op) {
      case CostFormula::Op::number:
      case CostFormula::Op::n:
      case CostFormula::Op::bytes:
      case CostFormula::Op::partitions: ++depth; break;
      case CostFormula::Op::neg: break;
      case CostFormula::Op::max:
      case CostFormula::Op::min: depth -= s.arity - 1; break;
      default: --depth; break;
    }
    most = std::max(most, depth);
  }
  return most;
}

}  // namespace

CostFormula compile_cost_formula(std::string_view text, const std::vector<std::pair<std::string, double>>& constants) {
  CostFormula f = FormulaParser(text, constants).parse();
  if (stack_need(f.code) > kMaxStack)
    throw CostFormulaError("cost formula \"" + std::string(text) + "\": too many terms");
  return f;
}

double CostFormula::evaluate(const CostInputs& in) const {
  double stack[kMaxStack];
  std::size_t top = 0;  // compile_cost_formula guarantees the depth fits
  for (const Step& s : code) {
    switch (s.op) {
      case Op::number: stack[top++] = s.value; break;
      case Op::n: stack[top++] = in.n; break;
      case Op::bytes: stack[top++] = in.bytes; break;
      case Op::partitions: stack[top++] = in.partitions; break;
      case Op::neg: stack[top - 1] = -stack[top - 1]; break;
      case Op::add: --top; stack[top - 1] += stack[top]; break;
      case Op::sub: --top; stack[top - 1] -= stack[top]; break;
      case Op::mul: --top; stack[top - 1] *= stack[top]; break;
      case Op::div: --top; stack[top - 1] /= stack[top]; break;
      case Op::max:
      case Op::min: {
        double v = stack[top - s.arity];
        for (std::size_t i = top - s.arity + 1; i < top; ++i) v = s.op == Op::max ? std::max(v, stack[i]) : std::min(v, stack[i]);
        top -= s.arity;
        stack[top++] = v;
        break;
      }
    }
  }
  return top == 1 ? stack[0] : 0;
}

}  // namespace nisa
