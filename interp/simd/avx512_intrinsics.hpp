// <immintrin.h> for the AVX-512 kernels. GCC 12 warns that the header's own
// _mm512_undefined_* placeholders "may be used uninitialized" once set1 and
// the masked forms are inlined into a target("avx512f") function (a false
// positive in the header itself), so that one warning is off for its lines.
#pragma once
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif
#include <immintrin.h>
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
