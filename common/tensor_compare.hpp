// Element-wise comparison of two .npy arrays for `nisa diff` (LANGUAGE.md
// section 1): float data within |a - e| <= atol + rtol * |e| (numpy allclose,
// evaluated in float64), NaN equal to NaN, an infinity equal only to the same
// infinity; integer, bool and void data exactly. A float NumPy lacks (bf16,
// fp8: ml_dtypes' types) compares by value with its own type or float32, and
// a void array with an ml_dtypes type of its size is read as that type. Any
// other shape or dtype difference makes the arrays differ without an
// element-wise comparison. ArrayComparer takes the
// data in parts, so that `nisa diff` needs bounded memory for any file size.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "npy.hpp"

namespace nisa {

struct CompareTolerance {
  double rtol = 1e-5;
  double atol = 1e-6;
};

struct ElementMismatch {
  int64_t flat_index = 0;
  std::string expected;  // the values as text (shortest round-trip form)
  std::string actual;
  double abs_error = 0;  // |a - e| (NaN when either is NaN)
  double rel_error = 0;  // |a - e| / |e| (inf when e is 0 and a is not)
};

struct ArrayComparison {
  // Non-empty when the arrays differ as a whole: "shape (2, 3) vs (3, 2)" or
  // "dtype float32 vs float64" (expected first). No element statistics then.
  std::string whole_difference;
  int64_t element_count = 0;
  std::string element_type;  // "float32", or "float32 vs bfloat16" where the sides differ (expected first)
  bool floats = false;       // compared as floats (within the tolerance), not exactly
  int64_t mismatch_count = 0;
  // Largest errors over all elements (equal infinities and NaN against NaN
  // count as error 0); NaN, at the first such element, when one side only is
  // NaN, so a summary never hides it. Index -1 when every error is 0.
  double max_abs_error = 0;
  int64_t max_abs_index = -1;
  double max_rel_error = 0;
  int64_t max_rel_index = -1;
  std::vector<ElementMismatch> first_mismatches;  // in C order, at most max_listed
  bool equal() const { return whole_difference.empty() && mismatch_count == 0; }
};

// The comparison fed in parts: whole elements of both arrays, in C order.
class ArrayComparer {
 public:
  // `expected` and `actual` are headers (their data is not read).
  ArrayComparer(const NpyArray& expected, const NpyArray& actual, CompareTolerance tolerance, std::size_t max_listed = 10);
  // False when the arrays differ as a whole: add() must not be called.
  bool compares_elements() const { return result_.whole_difference.empty(); }
  // The next `elements` elements of each array's data (each of its own type).
  void add(const uint8_t* expected, const uint8_t* actual, std::size_t elements);
  const ArrayComparison& result() const { return result_; }

 private:
  NpyType type_;         // the expected side's element type, as read
  NpyType actual_type_;  // the actual side's
  CompareTolerance tolerance_;
  std::size_t max_listed_;
  int64_t next_index_ = 0;
  ArrayComparison result_;
};

ArrayComparison compare_arrays(const NpyArray& expected, const NpyArray& actual, CompareTolerance tolerance,
                               std::size_t max_listed = 10);

// The full index of C-order element `flat_index` of `shape`: "[3, 17]" ("[]" for 0-d).
std::string index_text(int64_t flat_index, const std::vector<int64_t>& shape);

}  // namespace nisa
