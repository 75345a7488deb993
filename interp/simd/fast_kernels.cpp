#include "fast_kernels.hpp"

#include <cpuid.h>
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

#if NISA_HAS_AVX512_KERNELS
// Asked with four CPUID instructions of our own, not __builtin_cpu_supports:
// libgcc's detection runs as a constructor of every process that links it
// and asks ~14 leaves, and each CPUID leaves a virtual machine (6.5 us
// measured), ~0.09 ms of a 3 ms `nisa run` (issue 16).
CpuFeatures ask_cpu() {
  CpuFeatures f;
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (__get_cpuid_max(0, nullptr) < 7) return f;
  __cpuid(1, a, b, c, d);
  if ((c & bit_OSXSAVE) == 0) return f;
  // The OS saves the opmask and all 32 ZMM registers (XCR0 bits 1, 2, 5, 6, 7).
  unsigned xcr0_low = 0, xcr0_high = 0;
  __asm__("xgetbv" : "=a"(xcr0_low), "=d"(xcr0_high) : "c"(0));
  constexpr unsigned kAvx512State = 0xE6;
  if ((xcr0_low & kAvx512State) != kAvx512State) return f;
  __cpuid_count(7, 0, a, b, c, d);
  f.avx512 = (b & bit_AVX512F) && (b & bit_AVX512BW) && (b & bit_AVX512DQ) && (b & bit_AVX512VL);
  if (!f.avx512 || a < 1) return f;  // a: the last subleaf of leaf 7
  __cpuid_count(7, 1, a, b, c, d);
  f.avx512_bf16 = (a & bit_AVX512BF16) != 0;
  return f;
}
#endif

const CpuFeatures& cpu_features() {
#if NISA_HAS_AVX512_KERNELS
  static const CpuFeatures features = ask_cpu();
#else
  static const CpuFeatures features;
#endif
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
