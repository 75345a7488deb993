// tensor_scalar, tensor_tensor, tensor_reduce (LANGUAGE.md 2.4): float32
// arithmetic with inputs converted up and results converted down (S2.1).
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>

#include "test_machine.hpp"

using namespace nisa;
using namespace nisa::test;

TEST_CASE("tensor_scalar: two stages, [P,1] operand, reverse, integer output saturates (S2.3)") {
  TestMachine m;
  const int32_t x = m.sbuf("x", Dtype::f32, {4, 5});
  const int32_t k = m.sbuf("k", Dtype::f32, {4, 1});
  const int32_t y = m.sbuf("y", Dtype::f32, {4, 5});
  const int32_t q = m.sbuf("q", Dtype::i8, {4, 5});
  for (int p = 0; p < 4; ++p) {
    m.set<float>(k, p, 0, static_cast<float>(p + 1));
    for (int i = 0; i < 5; ++i) m.set<float>(x, p, i, static_cast<float>(i) * 10.0f);
  }
  // y = 7 - x * k[p]   (multiply, then subtract reversed)
  m.add("tensor_scalar", {{"dst", m.whole(y)}, {"data", m.whole(x)}, {"op0", "multiply"}, {"operand0", m.whole(k)},
                          {"op1", "subtract"}, {"operand1", number(7)}, {"reverse1", boolean(true)}});
  // q = int8(x * 3.05): 0, 30.5 -> 30 (ties to even), 61, 91.5 -> 92, 122
  m.add("tensor_scalar", {{"dst", m.whole(q)}, {"data", m.whole(x)}, {"op0", "multiply"}, {"operand0", number(3.05f)}});
  m.run();
  for (int p = 0; p < 4; ++p)
    for (int i = 0; i < 5; ++i) {
      CHECK(m.get<float>(y, p, i) == 7.0f - static_cast<float>(i) * 10.0f * static_cast<float>(p + 1));
      const float v = static_cast<float>(i) * 10.0f * 3.05f;
      CHECK(m.get<int8_t>(q, p, i) == static_cast<int8_t>(std::nearbyint(std::fmin(v, 127.0f))));
    }
}

TEST_CASE("tensor_tensor: elementwise ops over tiles of different shapes and dtypes; NaN through maximum") {
  TestMachine m;
  const int32_t a = m.sbuf("a", Dtype::f32, {2, 6});
  const int32_t b = m.psum("b", Dtype::i16, {2, 2, 3});
  const int32_t y = m.sbuf("y", Dtype::f32, {2, 3, 2});
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (int p = 0; p < 2; ++p)
    for (int i = 0; i < 6; ++i) {
      m.set<float>(a, p, i, i == 4 ? nan : static_cast<float>(i));
      m.set<int16_t>(b, p, i, static_cast<int16_t>(5 - 2 * i));
    }
  m.add("tensor_tensor", {{"dst", m.whole(y)}, {"data1", m.whole(a)}, {"data2", m.whole(b)}, {"op", "maximum"}});
  m.run();
  for (int p = 0; p < 2; ++p)
    for (int i = 0; i < 6; ++i) {
      if (i == 4) CHECK(std::isnan(m.get<float>(y, p, i)));
      else CHECK(m.get<float>(y, p, i) == std::fmax(static_cast<float>(i), static_cast<float>(5 - 2 * i)));
    }
}

TEST_CASE("tensor_tensor: dst overlapping data1 shifted by one element reads first (S1.6)") {
  TestMachine m;
  const int32_t t = m.sbuf("t", Dtype::f32, {1, 9});
  const int32_t ones = m.sbuf("ones", Dtype::f32, {1, 8});
  for (int i = 0; i < 9; ++i) m.set<float>(t, 0, i, static_cast<float>(i));
  for (int i = 0; i < 8; ++i) m.set<float>(ones, 0, i, 1.0f);
  Operand dst = m.whole(t), src = m.whole(t);
  dst.view.dims[1] = DimSlice{1, 8, 1};
  src.view.dims[1] = DimSlice{0, 8, 1};
  m.add("tensor_tensor", {{"dst", dst}, {"data1", src}, {"data2", m.whole(ones)}, {"op", "add"}});
  m.run();
  for (int i = 0; i < 9; ++i) CHECK(m.get<float>(t, 0, i) == (i == 0 ? 0.0f : static_cast<float>(i)));
}

TEST_CASE("tensor_reduce: each op to [P,1], negate, in place over its own data") {
  struct Case {
    const char* op;
    float expected;  // over {3, -7, 2, 0.5}
  };
  const Case cases[] = {{"add", -1.5f}, {"maximum", 3}, {"minimum", -7}, {"abs_max", 7}, {"abs_min", 0.5f}};
  for (const Case& c : cases) {
    const std::string op = c.op;
    CAPTURE(op);
    TestMachine m;
    const int32_t x = m.sbuf("x", Dtype::f32, {3, 4});
    const int32_t r = m.sbuf("r", Dtype::bf16, {3, 1});
    const float row[4] = {3, -7, 2, 0.5f};
    for (int p = 0; p < 3; ++p)
      for (int i = 0; i < 4; ++i) m.set<float>(x, p, i, row[i]);
    Operand first = m.whole(x);
    first.view.dims[1] = DimSlice{0, 1, 1};
    m.add("tensor_reduce", {{"dst", m.whole(r)}, {"data", m.whole(x)}, {"op", c.op}});
    m.add("tensor_reduce", {{"dst", first}, {"data", m.whole(x)}, {"op", c.op}, {"negate", boolean(true)}});
    m.run();
    for (int p = 0; p < 3; ++p) {
      float rv;
      const uint32_t bits = static_cast<uint32_t>(m.get<uint16_t>(r, p, 0)) << 16;
      std::memcpy(&rv, &bits, 4);
      CHECK(rv == c.expected);
      CHECK(m.get<float>(x, p, 0) == -c.expected);
    }
  }
}
