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

// The attribute every function that uses AVX-512 intrinsics carries. It
// also allows AVX512-BF16, whose only instructions (conversions to bf16 and
// a bf16 dot product) compilers emit for its intrinsics alone, never for
// plain code (nisa keeps bf16 as uint16_t bits); the kernels run those
// intrinsics only when bf16_instructions_enabled().
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define NISA_HAS_AVX512_KERNELS 1
#define NISA_AVX512 __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl,avx512bf16")))
// ... and is inlined into its caller's loop (a call would pass vectors through memory).
#define NISA_AVX512_INLINE \
  inline __attribute__((always_inline, target("avx512f,avx512bw,avx512dq,avx512vl,avx512bf16")))
#else
#define NISA_AVX512_INLINE inline
#define NISA_HAS_AVX512_KERNELS 0
#define NISA_AVX512
#endif

// True when steps decoded now may use the AVX-512 kernels.
bool fast_kernels_enabled();

// True when the fast kernels may also narrow float32 to bf16 with the CPU's
// AVX512-BF16 instruction (simd_lanes.hpp: the same bits as the portable
// rounding). Read by each kernel as it runs.
bool bf16_instructions_enabled();

// Test hook: false makes the fast kernels narrow to bf16 by bit arithmetic
// even where the CPU has AVX512-BF16 (true restores the default).
void allow_bf16_instructions(bool allow);

// Test hook: true forces the portable kernels for steps decoded afterwards
// (false restores the default: the CPU and NISA_PORTABLE_KERNELS decide).
void force_portable_kernels(bool portable);

}  // namespace nisa
