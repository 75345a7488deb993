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

// Taking the 8 vals in the order `order` lists them, each gets the first
// position of values[0..n) equal to it that an earlier val did not take
// (position[j], or -1). Done in one pass over values: position i goes to the
// first val, in that order, that equals it and has no position yet; this
// pairs the k-th occurrence of a value with the k-th val equal to it, which
// is what taking the vals one after another gives.
inline void pair_matches(const float* values, int64_t n, const float* vals, const int* order, int64_t* position) {
  int open[kSelect8];  // the vals without a position yet, in `order`
  int open_count = kSelect8;
  for (int t = 0; t < kSelect8; ++t) {
    open[t] = order[t];
    position[t] = -1;
  }
  for (int64_t i = 0; i < n && open_count > 0; ++i) {
    const float x = values[i];
    for (int t = 0; t < open_count; ++t) {
      if (!same_value(x, vals[open[t]])) continue;
      position[open[t]] = i;
      for (int u = t; u + 1 < open_count; ++u) open[u] = open[u + 1];
      --open_count;
      break;
    }
  }
}

}  // namespace nisa
