#include "fast_kernels.hpp"

#include <cstdlib>
#include <cstring>

#include "plain_paths.hpp"

namespace nisa {
namespace {

bool cpu_has_avx512() {
#if NISA_HAS_AVX512_KERNELS
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
#else
  return false;
#endif
}

bool cpu_has_avx512_bf16() {
#if NISA_HAS_AVX512_KERNELS
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512bf16");
#else
  return false;
#endif
}

// NISA_PORTABLE_KERNELS=1, or NISA_PLAIN_PATHS=1 (every speed-up off: plain_paths.hpp).
bool environment_forces_portable() {
  if (plain_paths()) return true;
  const char* v = std::getenv("NISA_PORTABLE_KERNELS");
  return v != nullptr && std::strcmp(v, "") != 0 && std::strcmp(v, "0") != 0;
}

bool forced_portable = false;
bool bf16_instructions_allowed = true;

}  // namespace

bool fast_kernels_enabled() {
  static const bool available = cpu_has_avx512() && !environment_forces_portable();
  return available && !forced_portable;
}

void force_portable_kernels(bool portable) { forced_portable = portable; }

bool bf16_instructions_enabled() {
  static const bool available = cpu_has_avx512_bf16();
  return available && bf16_instructions_allowed && fast_kernels_enabled();
}

void allow_bf16_instructions(bool allow) { bf16_instructions_allowed = allow; }

}  // namespace nisa
