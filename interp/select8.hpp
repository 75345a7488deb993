// The value order and matching of the Vector Engine's 8-wide selection
// instructions (max8, nc_find_index8, nc_match_replace8; SEMANTICS.md
// S4.32-S4.34), on float32 values (S2.1).
#pragma once
#include <cmath>
#include <cstdint>

namespace nisa {

constexpr int kSelect8 = 8;
constexpr uint32_t kNotFound = 0xFFFFFFFFu;  // all ones; a uint16 dst keeps 0xFFFF

// max8's order: NaN ranks above every number (as in np.sort, NKI's golden
// formula sorts ascending and takes the end); otherwise float32 `>`, so -0.0
// and +0.0 tie.
inline bool ranks_above(float a, float b) {
  if (std::isnan(b)) return false;
  return std::isnan(a) || a > b;
}

// A val matches a data element when they are equal as float32, or both NaN
// (so max8's NaN results are found again).
inline bool same_value(float a, float b) { return a == b || (std::isnan(a) && std::isnan(b)); }

// The first index of values[0..n) equal to `v` that is not among taken[0..k),
// or -1.
inline int64_t first_free_match(const float* values, int64_t n, float v, const int64_t* taken, int k) {
  for (int64_t i = 0; i < n; ++i) {
    if (!same_value(values[i], v)) continue;
    bool used = false;
    for (int j = 0; j < k; ++j) used = used || taken[j] == i;
    if (!used) return i;
  }
  return -1;
}

}  // namespace nisa
