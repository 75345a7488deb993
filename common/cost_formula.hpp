// Cost formulas of the ISA spec (SEMANTICS S6): strings such as
// "max(MIN_II, 2 * N)" or "FIXED + BYTES / DMA_BYTES_PER_CYCLE", compiled once
// at spec load into a short postfix program, then evaluated per instruction
// without parsing. Grammar: numbers, the spec's cost constants (folded in at
// compile time), the variables N (elements per partition), BYTES (bytes of the
// operand) and P (partitions), + - * / with the usual precedence, unary minus,
// parentheses and max(a, b, ...) / min(a, b, ...).
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace nisa {

// The sizes an instruction's cost depends on (its cost "size_of" operand).
struct CostInputs {
  double n = 0;       // N: elements per partition
  double bytes = 0;   // BYTES: bytes of the view
  double partitions = 0;  // P
};

struct CostFormula {
  enum class Op : uint8_t { number, n, bytes, partitions, add, sub, mul, div, neg, max, min };
  struct Step {
    Op op = Op::number;
    double value = 0;   // number
    uint32_t arity = 0; // max/min: number of arguments
    bool operator==(const Step&) const = default;
  };
  std::string text;        // as written in the spec
  std::vector<Step> code;  // postfix

  double evaluate(const CostInputs& in) const;
  bool operator==(const CostFormula&) const = default;
};

// A formula that cannot be compiled; the message names the offending token.
class CostFormulaError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Compiles `text`. Names other than N, BYTES, P, max and min must be among
// `constants`. Throws CostFormulaError.
CostFormula compile_cost_formula(std::string_view text, const std::vector<std::pair<std::string, double>>& constants);

}  // namespace nisa
