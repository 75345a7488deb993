// Run-time choice of the hand-vectorised AVX-512 kernels (simd_lanes.hpp,
// fused_lane_loop.hpp). nisa is built for the machine it runs on or for any
// x86-64, so the fast kernels are compiled with function-level target
// attributes and chosen once per step at pre-decode, when the CPU has
// AVX-512 F/BW/DQ/VL. Every fast kernel has a portable twin (the generic lane
// loop) that gives the same bits; NISA_PORTABLE_KERNELS=1 (or NISA_PLAIN_PATHS=1) in the environment,
// or force_portable_kernels(true) in a unit test, selects the portable ones so
// both are tested.
#pragma once

namespace nisa {

// The attribute every function that uses AVX-512 intrinsics carries.
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define NISA_HAS_AVX512_KERNELS 1
#define NISA_AVX512 __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl")))
// ... and is inlined into its caller's loop (a call would pass vectors through memory).
#define NISA_AVX512_INLINE inline __attribute__((always_inline, target("avx512f,avx512bw,avx512dq,avx512vl")))
#else
#define NISA_AVX512_INLINE inline
#define NISA_HAS_AVX512_KERNELS 0
#define NISA_AVX512
#endif

// True when steps decoded now may use the AVX-512 kernels.
bool fast_kernels_enabled();

// Test hook: true forces the portable kernels for steps decoded afterwards
// (false restores the default: the CPU and NISA_PORTABLE_KERNELS decide).
void force_portable_kernels(bool portable);

}  // namespace nisa
