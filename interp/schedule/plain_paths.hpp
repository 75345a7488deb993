// NISA_PLAIN_PATHS=1 (any value but empty or 0): run without the speed-ups
// that must never change a result (dead-store elimination, SIMD kernels,
// a second thread), so a test can compare both runs byte for byte
// (tests/identity/output_identity.py --plain-random).
#pragma once
#include <cstdlib>
#include <cstring>

namespace nisa {

inline bool plain_paths() {
  static const bool plain = [] {
    const char* v = std::getenv("NISA_PLAIN_PATHS");
    return v != nullptr && *v != '\0' && std::strcmp(v, "0") != 0;
  }();
  return plain;
}

}  // namespace nisa
