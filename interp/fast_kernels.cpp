#include "fast_kernels.hpp"

#include <cstdlib>
#include <cstring>

#include "plain_paths.hpp"

namespace nisa {
namespace {

// What the CPU offers the kernels, asked once.
struct CpuFeatures {
  bool avx512 = false;  // F, BW, DQ, VL
  bool avx512_bf16 = false;
};

const CpuFeatures& cpu_features() {
  static const CpuFeatures features = [] {
    CpuFeatures f;
#if NISA_HAS_AVX512_KERNELS
    __builtin_cpu_init();
    f.avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
               __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
    f.avx512_bf16 = f.avx512 && __builtin_cpu_supports("avx512bf16");
#endif
    return f;
  }();
  return features;
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
  static const bool available = cpu_features().avx512 && !environment_forces_portable();
  return available && !forced_portable;
}

void force_portable_kernels(bool portable) { forced_portable = portable; }

bool bf16_instructions_enabled() {
  return cpu_features().avx512_bf16 && bf16_instructions_allowed && fast_kernels_enabled();
}

void allow_bf16_instructions(bool allow) { bf16_instructions_allowed = allow; }

}  // namespace nisa
