// NKI 0.6's operator table (nki.api.shared.rst, "Supported Math Operators";
// S7) in tensor_scalar, tensor_tensor and tensor_reduce, and the activation
// derivatives. Expected values are worked out by hand from NKI's
// definitions, never taken from nisa's output.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <string>

#include "../asm/asm_test_support.hpp"
#include "test_machine.hpp"

using namespace nisa;
using namespace nisa::test;

TEST_CASE("tensor_scalar op0=equal on f32 gives 1.0/0.0; greater reversed; logical_and of the results") {
  TestMachine m;
  const int32_t x = m.sbuf("x", Dtype::f32, {2, 4});
  const int32_t eq = m.sbuf("eq", Dtype::f32, {2, 4});
  const int32_t gt = m.sbuf("gt", Dtype::u8, {2, 4});
  const float xs[4] = {-1.5f, 2.0f, 2.5f, 2.0f};
  for (int p = 0; p < 2; ++p)
    for (int i = 0; i < 4; ++i) m.set<float>(x, p, i, xs[i]);
  m.add("tensor_scalar", {{"dst", m.whole(eq)}, {"data", m.whole(x)}, {"op0", "equal"}, {"operand0", number(2.0f)}});
  // 2.1 > x (reversed), then logical_and with 1: 1 for -1.5, 2, 2; 0 for 2.5
  m.add("tensor_scalar", {{"dst", m.whole(gt)}, {"data", m.whole(x)}, {"op0", "greater"}, {"operand0", number(2.1f)},
                          {"reverse0", boolean(true)}, {"op1", "logical_and"}, {"operand1", number(1.0f)}});
  m.run();
  const float want_eq[4] = {0, 1, 0, 1};
  const uint8_t want_gt[4] = {1, 1, 0, 1};
  for (int p = 0; p < 2; ++p)
    for (int i = 0; i < 4; ++i) {
      CHECK(m.get<float>(eq, p, i) == want_eq[i]);
      CHECK(m.get<uint8_t>(gt, p, i) == want_gt[i]);
    }
}

TEST_CASE("tensor_tensor op=bitwise_and on int32 bit patterns; power in float32") {
  TestMachine m;
  const int32_t a = m.sbuf("a", Dtype::i32, {1, 4});
  const int32_t b = m.sbuf("b", Dtype::i32, {1, 4});
  const int32_t y = m.sbuf("y", Dtype::i32, {1, 4});
  const uint32_t as[4] = {0x0F0F0F0Fu, 0xFFFFFFFFu, 0x80000001u, 0x12345678u};
  const uint32_t bs[4] = {0x00FF00FFu, 0x80000001u, 0x7FFFFFFFu, 0u};
  const uint32_t want[4] = {0x000F000Fu, 0x80000001u, 0x00000001u, 0u};
  for (int i = 0; i < 4; ++i) {
    m.set<int32_t>(a, 0, i, static_cast<int32_t>(as[i]));
    m.set<int32_t>(b, 0, i, static_cast<int32_t>(bs[i]));
  }
  m.add("tensor_tensor", {{"dst", m.whole(y)}, {"data1", m.whole(a)}, {"data2", m.whole(b)}, {"op", "bitwise_and"}});

  const int32_t base = m.sbuf("base", Dtype::f32, {1, 3});
  const int32_t expo = m.sbuf("expo", Dtype::f32, {1, 3});
  const int32_t pw = m.sbuf("pw", Dtype::f32, {1, 3});
  const float bases[3] = {3.0f, 2.0f, 4.0f}, exps[3] = {2.0f, -1.0f, 0.5f}, want_pw[3] = {9.0f, 0.5f, 2.0f};
  for (int i = 0; i < 3; ++i) m.set<float>(base, 0, i, bases[i]), m.set<float>(expo, 0, i, exps[i]);
  m.add("tensor_tensor", {{"dst", m.whole(pw)}, {"data1", m.whole(base)}, {"data2", m.whole(expo)}, {"op", "power"}});
  m.run();
  for (int i = 0; i < 4; ++i) CHECK(static_cast<uint32_t>(m.get<int32_t>(y, 0, i)) == want[i]);
  for (int i = 0; i < 3; ++i) CHECK(m.get<float>(pw, 0, i) == want_pw[i]);
}

TEST_CASE("left_shift and logical right_shift act on the element's own bit width") {
  TestMachine m;
  const int32_t a = m.sbuf("a", Dtype::i32, {1, 3});
  const int32_t l = m.sbuf("l", Dtype::i32, {1, 3});
  const int32_t r = m.sbuf("r", Dtype::i32, {1, 3});
  const int32_t u = m.sbuf("u", Dtype::u8, {1, 2});
  const int32_t us = m.sbuf("us", Dtype::u8, {1, 2});
  const uint32_t as[3] = {1u, 0x80000001u, 0xFFFFFFF8u};  // 1, INT32_MIN + 1, -8
  for (int i = 0; i < 3; ++i) m.set<int32_t>(a, 0, i, static_cast<int32_t>(as[i]));
  m.set<uint8_t>(u, 0, 0, 0x81), m.set<uint8_t>(u, 0, 1, 0x7F);
  m.add("tensor_scalar", {{"dst", m.whole(l)}, {"data", m.whole(a)}, {"op0", "left_shift"}, {"operand0", integer(31)}});
  m.add("tensor_scalar", {{"dst", m.whole(r)}, {"data", m.whole(a)}, {"op0", "right_shift"}, {"operand0", integer(1)}});
  // u8: (x << 1) then invert: 0x81 -> 0x02 -> 0xFD; 0x7F -> 0xFE -> 0x01
  m.add("tensor_scalar", {{"dst", m.whole(us)}, {"data", m.whole(u)}, {"op0", "left_shift"}, {"operand0", integer(1)},
                          {"op1", "invert"}, {"operand1", integer(0)}});
  m.run();
  const uint32_t want_l[3] = {0x80000000u, 0x80000000u, 0u};
  const uint32_t want_r[3] = {0u, 0x40000000u, 0x7FFFFFFCu};  // logical: no sign fill
  for (int i = 0; i < 3; ++i) {
    CHECK(static_cast<uint32_t>(m.get<int32_t>(l, 0, i)) == want_l[i]);
    CHECK(static_cast<uint32_t>(m.get<int32_t>(r, 0, i)) == want_r[i]);
  }
  CHECK(m.get<uint8_t>(us, 0, 0) == 0xFD);
  CHECK(m.get<uint8_t>(us, 0, 1) == 0x01);
}

TEST_CASE("tensor_reduce: subtract as NumPy's subtract.reduce, multiply, bitwise_or") {
  TestMachine m;
  const int32_t x = m.sbuf("x", Dtype::f32, {2, 4});
  const int32_t s = m.sbuf("s", Dtype::f32, {2, 1});
  const int32_t prod = m.sbuf("prod", Dtype::f32, {2, 1});
  const int32_t bits = m.sbuf("bits", Dtype::u16, {2, 3});
  const int32_t ored = m.sbuf("ored", Dtype::u16, {2, 1});
  const float xs[2][4] = {{10, 1, 2, 3}, {-0.5f, 2, 4, 0.25f}};
  for (int p = 0; p < 2; ++p)
    for (int i = 0; i < 4; ++i) m.set<float>(x, p, i, xs[p][i]);
  const uint16_t bs[2][3] = {{0x0001, 0x0100, 0x8000}, {0x00F0, 0x000F, 0x00FF}};
  for (int p = 0; p < 2; ++p)
    for (int i = 0; i < 3; ++i) m.set<uint16_t>(bits, p, i, bs[p][i]);
  m.add("tensor_reduce", {{"dst", m.whole(s)}, {"data", m.whole(x)}, {"op", "subtract"}});
  m.add("tensor_reduce", {{"dst", m.whole(prod)}, {"data", m.whole(x)}, {"op", "multiply"}, {"negate", boolean(true)}});
  m.add("tensor_reduce", {{"dst", m.whole(ored)}, {"data", m.whole(bits)}, {"op", "bitwise_or"}});
  m.run();
  CHECK(m.get<float>(s, 0, 0) == 4.0f);       // 10 - 1 - 2 - 3
  CHECK(m.get<float>(s, 1, 0) == -6.75f);     // -0.5 - 2 - 4 - 0.25
  CHECK(m.get<float>(prod, 0, 0) == -60.0f);  // -(10 * 1 * 2 * 3)
  CHECK(m.get<float>(prod, 1, 0) == 1.0f);    // -(-0.5 * 2 * 4 * 0.25)
  CHECK(m.get<uint16_t>(ored, 0, 0) == 0x8101);
  CHECK(m.get<uint16_t>(ored, 1, 0) == 0x00FF);
}

TEST_CASE("activation derivatives at 0 and 1 (exact derivatives of gelu, silu, erf)") {
  TestMachine m;
  const int32_t x = m.sbuf("x", Dtype::f32, {1, 2});
  m.set<float>(x, 0, 0, 0.0f), m.set<float>(x, 0, 1, 1.0f);
  const char* ops[4] = {"gelu_dx", "gelu_apprx_sigmoid_dx", "silu_dx", "erf_dx"};
  int32_t out[4];
  for (int k = 0; k < 4; ++k) {
    out[k] = m.sbuf(std::string("y") + ops[k], Dtype::f32, {1, 2});
    m.add("activation", {{"dst", m.whole(out[k])}, {"op", ops[k]}, {"data", m.whole(x)}});
  }
  m.run();
  const double s1 = 1.0 / (1.0 + std::exp(-1.0)), s17 = 1.0 / (1.0 + std::exp(-1.702));
  const double want[4][2] = {
      {0.5, 0.5 * (1.0 + std::erf(1.0 / std::sqrt(2.0))) + std::exp(-0.5) / std::sqrt(2.0 * M_PI)},  // Phi(x) + x phi(x)
      {0.5, s17 + 1.702 * s17 * (1.0 - s17)},
      {0.5, s1 + s1 * (1.0 - s1)},
      {2.0 / std::sqrt(M_PI), 2.0 / std::sqrt(M_PI) * std::exp(-1.0)}};
  for (int k = 0; k < 4; ++k)
    for (int i = 0; i < 2; ++i) CHECK_MESSAGE(m.get<float>(out[k], 0, i) == doctest::Approx(want[k][i]).epsilon(1e-6), ops[k]);
}

TEST_CASE("bitvec operators are refused on float tiles, and mixed with arithmetic ones") {
  const std::string decl = ".arch trn2\n.sbuf x f32 [4, 8]\n.sbuf i i32 [4, 8]\n";
  CHECK(asm_test::first_error(decl + "tensor_tensor dst=i, data1=x, data2=i, op=bitwise_and\n") ==
        "'data1' is 'x' of dtype f32; op=bitwise_and is a bitvec operator, which acts on integer bit patterns: allowed: i8, i16, i32, u8, "
        "u16, u32");
  CHECK(asm_test::first_error(decl + "tensor_scalar dst=i, data=i, op0=bitwise_or, operand0=1, op1=add, operand1=2\n") ==
        "op0=bitwise_or is a bitvec operator and op1=add an arithmetic one; the operators of one tensor_scalar must be of the same kind");
  CHECK(asm_test::first_error(decl + "tensor_scalar dst=i, data=i, op0=bitwise_xor, operand0=1.5\n") == "'operand0' must be an exact integer, got 1.5");
  // 0x0F0F0F0F is not a float32: with a bitvec operator the scalar is an exact int32.
  CHECK(asm_test::first_error(decl + "tensor_scalar dst=i, data=i, op0=bitwise_and, operand0=0x0F0F0F0F\n").empty());
}
