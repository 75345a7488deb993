// Element<T> conversions, hand-derived bit patterns (SEMANTICS.md S2). The
// exhaustive comparison against an independent NumPy model is
// tests/numbers/make_reference.py.
#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include "numbers.hpp"

using nisa::Dtype;
using nisa::Element;

namespace {

float f(uint32_t bits) { return std::bit_cast<float>(bits); }
uint32_t bits(float x) { return std::bit_cast<uint32_t>(x); }
constexpr float kFp32Min = -3.4028234663852886e38f;  // S2.4, bits 0xFF7FFFFF
constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

using Bf16 = Element<Dtype::bf16>;
using F16 = Element<Dtype::f16>;
using Tf32 = Element<Dtype::tf32>;
using E4m3 = Element<Dtype::fp8e4m3>;
using E4m3fn = Element<Dtype::fp8e4m3fn>;
using E5m2 = Element<Dtype::fp8e5m2>;

}  // namespace

TEST_CASE("fp32.min is the bit pattern of S2.4") { CHECK(bits(kFp32Min) == 0xFF7FFFFFu); }

TEST_CASE("bf16: round to nearest even (S2.2)") {
  CHECK(Bf16::from_f32(1.0f) == 0x3F80);
  CHECK(Bf16::from_f32(f(0x3F808000)) == 0x3F80);  // 1 + 2^-8: tie, 0x3F80 is even
  CHECK(Bf16::from_f32(f(0x3F808001)) == 0x3F81);  // just above the tie
  CHECK(Bf16::from_f32(f(0x3F807FFF)) == 0x3F80);  // just below
  CHECK(Bf16::from_f32(f(0x3F818000)) == 0x3F82);  // 1 + 3*2^-8: tie, up to even 1 + 2^-6
  CHECK(Bf16::from_f32(-1.0f) == 0xBF80);
  CHECK(Bf16::from_f32(-0.0f) == 0x8000);
  CHECK(Bf16::from_f32(0.0f) == 0x0000);
}

TEST_CASE("bf16: subnormals kept, overflow to inf, NaN stays NaN (S2.2, S2.4)") {
  CHECK(Bf16::from_f32(f(0x00010000)) == 0x0001);  // 2^-133, smallest bf16 subnormal
  CHECK(Bf16::from_f32(f(0x00008000)) == 0x0000);  // half of it: tie to even 0
  CHECK(Bf16::from_f32(f(0x00008001)) == 0x0001);
  CHECK(Bf16::from_f32(f(0x00018000)) == 0x0002);  // 1.5 ulp: tie, to even 2
  CHECK(Bf16::from_f32(f(0x007FFFFF)) == 0x0080);  // largest f32 subnormal rounds up to min normal
  CHECK(Bf16::from_f32(f(0x7F7F7FFF)) == 0x7F7F);  // below the midpoint past max finite
  CHECK(Bf16::from_f32(f(0x7F7F8000)) == 0x7F80);  // midpoint: to even, which is inf
  CHECK(Bf16::from_f32(kInf) == 0x7F80);
  CHECK(Bf16::from_f32(-kInf) == 0xFF80);
  CHECK(Bf16::from_f32(kFp32Min) == 0xFF80);  // S2.4
  CHECK(Bf16::from_f32(std::numeric_limits<float>::max()) == 0x7F80);
  const uint16_t nan = Bf16::from_f32(kNaN);
  CHECK((nan & 0x7F80) == 0x7F80);
  CHECK((nan & 0x007F) != 0);
  CHECK((nan & 0x8000) == 0);
  CHECK((Bf16::from_f32(-kNaN) & 0x8000) == 0x8000);
  CHECK(std::isnan(Bf16::to_f32(Bf16::from_f32(f(0x7F800001)))));  // signalling payload below bit 16
}

TEST_CASE("bf16: widening is exact") {
  CHECK(bits(Bf16::to_f32(0x3F81)) == 0x3F810000u);
  CHECK(bits(Bf16::to_f32(0x0001)) == 0x00010000u);
  CHECK(bits(Bf16::to_f32(0x8000)) == 0x80000000u);
  CHECK(bits(Bf16::to_f32(0xFF80)) == 0xFF800000u);
}

TEST_CASE("f16: rounding, range and subnormals (S2.2)") {
  CHECK(F16::from_f32(1.0f) == 0x3C00);
  CHECK(F16::from_f32(65504.0f) == 0x7BFF);  // largest finite
  CHECK(F16::from_f32(65519.0f) == 0x7BFF);
  CHECK(F16::from_f32(65520.0f) == 0x7C00);  // midpoint to 2^16: even is inf
  CHECK(F16::from_f32(0x1p-24f) == 0x0001);  // smallest subnormal
  CHECK(F16::from_f32(0x1p-25f) == 0x0000);  // tie, to even 0
  CHECK(F16::from_f32(std::nextafter(0x1p-25f, 1.0f)) == 0x0001);
  CHECK(F16::from_f32(3 * 0x1p-25f) == 0x0002);         // tie between 1 and 2 ulps
  CHECK(F16::from_f32(0x1p-14f) == 0x0400);             // smallest normal
  CHECK(F16::from_f32(0x1p-14f - 0x1p-25f) == 0x0400);  // 1023.5 ulps: tie, to even 1024
  CHECK(F16::from_f32(0x1p-14f - 0x1p-24f) == 0x03FF);
  CHECK(F16::from_f32(1e-10f) == 0x0000);
  CHECK(F16::from_f32(-1e-10f) == 0x8000);
  CHECK(F16::from_f32(f(0x3F801000)) == 0x3C00);  // 1 + 2^-11: tie, to even
  CHECK(F16::from_f32(f(0x3F803000)) == 0x3C02);  // 1 + 3*2^-11: tie, to even
  CHECK(F16::from_f32(kInf) == 0x7C00);
  CHECK(F16::from_f32(kFp32Min) == 0xFC00);  // S2.4
  CHECK(F16::from_f32(kNaN) == 0x7E00);
  CHECK(F16::from_f32(-kNaN) == 0xFE00);
  CHECK(F16::to_f32(0x0001) == 0x1p-24f);
  CHECK(F16::to_f32(0x03FF) == 1023 * 0x1p-24f);
  CHECK(F16::to_f32(0x7BFF) == 65504.0f);
  CHECK(F16::to_f32(0xFC00) == -kInf);
  CHECK(std::isnan(F16::to_f32(0x7C01)));
  CHECK(std::signbit(F16::to_f32(0x8000)));
}

TEST_CASE("tf32: float32 with 13 mantissa bits rounded away, in 4 bytes (S2.2)") {
  CHECK(Tf32::from_f32(1.0f) == 0x3F800000u);
  CHECK(Tf32::from_f32(f(0x3F801000)) == 0x3F800000u);  // 1 + 2^-11: tie, to even
  CHECK(Tf32::from_f32(f(0x3F803000)) == 0x3F804000u);  // 1 + 3*2^-11: tie, to even
  CHECK(Tf32::from_f32(f(0x3F801001)) == 0x3F802000u);
  CHECK(Tf32::from_f32(f(0x00001000)) == 0x00000000u);  // subnormal tie to 0
  CHECK(Tf32::from_f32(f(0x00001001)) == 0x00002000u);  // subnormal kept
  CHECK(Tf32::from_f32(f(0x7F7FE000)) == 0x7F7FE000u);  // largest finite
  CHECK(Tf32::from_f32(kFp32Min) == 0xFF800000u);       // rounds past it: -inf
  CHECK(Tf32::from_f32(kInf) == 0x7F800000u);
  CHECK(std::isnan(Tf32::to_f32(Tf32::from_f32(kNaN))));
  CHECK(std::signbit(Tf32::to_f32(Tf32::from_f32(-kNaN))));
  CHECK(Tf32::to_f32(0x3F804000u) == 1.0f + 0x1p-9f);
}

TEST_CASE("fp8e4m3 (NKI float8_e4m3): IEEE-style, max 240 (S2.2)") {
  CHECK(E4m3::from_f32(1.0f) == 0x38);
  CHECK(E4m3::from_f32(240.0f) == 0x77);
  CHECK(E4m3::from_f32(247.0f) == 0x77);
  CHECK(E4m3::from_f32(248.0f) == 0x78);  // midpoint past max: even is inf
  CHECK(E4m3::from_f32(kInf) == 0x78);
  CHECK(E4m3::from_f32(kFp32Min) == 0xF8);  // S2.4
  CHECK(E4m3::from_f32(0x1p-9f) == 0x01);   // smallest subnormal
  CHECK(E4m3::from_f32(0x1p-10f) == 0x00);  // tie to 0
  CHECK(E4m3::from_f32(3 * 0x1p-10f) == 0x02);
  CHECK(E4m3::from_f32(-0.0f) == 0x80);
  CHECK(E4m3::from_f32(kNaN) == 0x7C);
  CHECK(E4m3::from_f32(-kNaN) == 0xFC);
  CHECK(E4m3::to_f32(0x77) == 240.0f);
  CHECK(E4m3::to_f32(0x78) == kInf);
  CHECK(E4m3::to_f32(0x08) == 0x1p-6f);
  CHECK(E4m3::to_f32(0x07) == 7 * 0x1p-9f);
  CHECK(std::isnan(E4m3::to_f32(0x7F)));
}

TEST_CASE("fp8e4m3fn (NKI float8_e4m3fn): no inf, max 448, saturates (S2.2, S2.4)") {
  CHECK(E4m3fn::from_f32(1.0f) == 0x38);
  CHECK(E4m3fn::from_f32(448.0f) == 0x7E);
  CHECK(E4m3fn::from_f32(416.0f) == 0x7D);
  CHECK(E4m3fn::from_f32(464.0f) == 0x7E);  // tie 448/480: 480 would be the NaN code
  CHECK(E4m3fn::from_f32(480.0f) == 0x7E);
  CHECK(E4m3fn::from_f32(500.0f) == 0x7E);
  CHECK(E4m3fn::from_f32(1e10f) == 0x7E);
  CHECK(E4m3fn::from_f32(kInf) == 0x7E);
  CHECK(E4m3fn::from_f32(-kInf) == 0xFE);
  CHECK(E4m3fn::from_f32(kFp32Min) == 0xFE);  // no -inf: saturates to -448
  CHECK(E4m3fn::from_f32(kNaN) == 0x7F);
  CHECK(E4m3fn::from_f32(-kNaN) == 0xFF);
  CHECK(E4m3fn::from_f32(0x1p-9f) == 0x01);
  CHECK(E4m3fn::to_f32(0x78) == 256.0f);  // exponent 1111 is a normal number here
  CHECK(E4m3fn::to_f32(0x7E) == 448.0f);
  CHECK(E4m3fn::to_f32(0xFE) == -448.0f);
  CHECK(std::isnan(E4m3fn::to_f32(0x7F)));
  CHECK(std::isnan(E4m3fn::to_f32(0xFF)));
}

TEST_CASE("fp8e5m2: IEEE-style, bias 15 (S2.2)") {
  CHECK(E5m2::from_f32(1.0f) == 0x3C);
  CHECK(E5m2::from_f32(57344.0f) == 0x7B);
  CHECK(E5m2::from_f32(61439.0f) == 0x7B);
  CHECK(E5m2::from_f32(61440.0f) == 0x7C);  // midpoint past max: even is inf
  CHECK(E5m2::from_f32(kFp32Min) == 0xFC);  // S2.4
  CHECK(E5m2::from_f32(0x1p-16f) == 0x01);
  CHECK(E5m2::from_f32(1.25f) == 0x3D);
  CHECK(E5m2::from_f32(1.125f) == 0x3C);  // tie to even
  CHECK(E5m2::from_f32(1.375f) == 0x3E);  // tie to even
  CHECK(E5m2::from_f32(kNaN) == 0x7E);
  CHECK(E5m2::to_f32(0x7B) == 57344.0f);
  CHECK(E5m2::to_f32(0x7C) == kInf);
  CHECK(E5m2::to_f32(0x01) == 0x1p-16f);
}

TEST_CASE("float32 -> integers: nearest even, saturate, NaN -> 0 (S2.3)") {
  using I8 = Element<Dtype::i8>;
  using U8 = Element<Dtype::u8>;
  using I16 = Element<Dtype::i16>;
  using I32 = Element<Dtype::i32>;
  using U32 = Element<Dtype::u32>;
  CHECK(I8::from_f32(2.5f) == 2);
  CHECK(I8::from_f32(3.5f) == 4);
  CHECK(I8::from_f32(-2.5f) == -2);
  CHECK(I8::from_f32(-0.5f) == 0);
  CHECK(I8::from_f32(-0.51f) == -1);
  CHECK(I8::from_f32(127.5f) == 127);
  CHECK(I8::from_f32(1e9f) == 127);
  CHECK(I8::from_f32(-1e9f) == -128);
  CHECK(I8::from_f32(kInf) == 127);
  CHECK(I8::from_f32(-kInf) == -128);
  CHECK(I8::from_f32(kNaN) == 0);
  CHECK(U8::from_f32(-1.0f) == 0);
  CHECK(U8::from_f32(254.5f) == 254);
  CHECK(U8::from_f32(255.5f) == 255);
  CHECK(I16::from_f32(32767.5f) == 32767);
  CHECK(I16::from_f32(-32768.5f) == -32768);
  CHECK(I32::from_f32(4194304.5f) == 4194304);
  CHECK(I32::from_f32(4194305.5f) == 4194306);
  CHECK(I32::from_f32(2147483648.0f) == 2147483647);
  CHECK(I32::from_f32(-2147483648.0f) == std::numeric_limits<int32_t>::min());
  CHECK(I32::from_f32(kFp32Min) == std::numeric_limits<int32_t>::min());
  CHECK(U32::from_f32(4294967296.0f) == 4294967295u);
  CHECK(U32::from_f32(4294967040.0f) == 4294967040u);
  CHECK(U32::from_f32(-5.0f) == 0u);
  CHECK(U32::from_f32(-kNaN) == 0u);
}

TEST_CASE("integers -> float32: nearest (S2.3)") {
  CHECK(Element<Dtype::i32>::to_f32(16777217) == 16777216.0f);  // tie, to even
  CHECK(Element<Dtype::i32>::to_f32(16777219) == 16777220.0f);  // tie, to even
  CHECK(Element<Dtype::i32>::to_f32(2147483647) == 2147483648.0f);
  CHECK(Element<Dtype::u32>::to_f32(4294967295u) == 4294967296.0f);
  CHECK(Element<Dtype::i8>::to_f32(-128) == -128.0f);
}

TEST_CASE("from_i64: integers exact and saturating, floats through nearest float32") {
  CHECK(Element<Dtype::i8>::from_i64(300) == 127);
  CHECK(Element<Dtype::i8>::from_i64(-300) == -128);
  CHECK(Element<Dtype::u32>::from_i64(-5) == 0u);
  CHECK(Element<Dtype::u32>::from_i64(int64_t{1} << 40) == 4294967295u);
  CHECK(Element<Dtype::i32>::from_i64(-7) == -7);
  CHECK(Element<Dtype::u16>::from_i64(65535) == 65535);
  CHECK(Element<Dtype::f32>::from_i64(16777217) == 16777216.0f);
  CHECK(Bf16::from_i64(257) == 0x4380);  // 257 is a tie between 256 and 258
  CHECK(E4m3fn::from_i64(1000) == 0x7E);
}

TEST_CASE("dispatch_dtype picks the Element of the runtime dtype") {
  for (int i = 0; i < nisa::kDtypeCount; ++i) {
    const auto t = static_cast<Dtype>(i);
    CAPTURE(nisa::dtype_name(t));
    const auto size = nisa::dispatch_dtype(t, [](auto e) { return sizeof(typename decltype(e)::storage); });
    CHECK(size == nisa::dtype_size(t));
    const Dtype seen = nisa::dispatch_dtype(t, [](auto e) { return decltype(e)::dtype; });
    CHECK(seen == t);
    const bool is_float = nisa::dispatch_dtype(t, [](auto e) { return decltype(e)::is_float; });
    CHECK(is_float == nisa::dtype_is_float(t));
    unsigned char buffer[4] = {};
    nisa::dtype_from_f32(t, 3.0f, buffer);
    CHECK(nisa::dtype_to_f32(t, buffer) == 3.0f);
  }
}
