// iota's NKI 0.6 form and tensor_reduce's axis (LANGUAGE.md 2.4, S7), with
// expected values derived by hand from NKI 0.6's docstrings.
#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "test_machine.hpp"

using namespace nisa;
using namespace nisa::test;

namespace {

Operand list(std::vector<int32_t> values) {
  Operand o;
  o.state = OperandState::list;
  o.list = std::move(values);
  return o;
}

}  // namespace

TEST_CASE("iota pattern form: offset + p*channel_multiplier + sum of index*step, last entry innermost") {
  TestMachine m;
  const int32_t t = m.sbuf("t", Dtype::i32, {3, 6});
  // pattern [[10, 2], [-1, 3]]: free element k = 3*w + x has value 10*w - x.
  m.add("iota", {{"dst", m.whole(t)}, {"pattern", list({10, 2, -1, 3})}, {"offset", integer(5)}, {"channel_multiplier", integer(100)}});
  m.run();
  const int32_t expected_row[6] = {0, -1, -2, 10, 9, 8};
  for (int p = 0; p < 3; ++p)
    for (int k = 0; k < 6; ++k) CHECK(m.get<int32_t>(t, p, k) == 5 + 100 * p + expected_row[k]);
}

TEST_CASE("iota pattern form: int32 arithmetic wraps, then converts to dst's dtype (S7, S2.3)") {
  TestMachine m;
  const int32_t w = m.sbuf("w", Dtype::i32, {2, 2});
  const int32_t u = m.sbuf("u", Dtype::u8, {1, 4});
  const int32_t f = m.sbuf("f", Dtype::bf16, {1, 2});
  // 2147483647 + 1 wraps to -2147483648 (partition 1).
  m.add("iota", {{"dst", m.whole(w)}, {"pattern", list({0, 2})}, {"offset", integer(2147483647)}, {"channel_multiplier", integer(1)}});
  // -2, 254, 510, 766 saturate to 0, 254, 255, 255 in u8.
  m.add("iota", {{"dst", m.whole(u)}, {"pattern", list({256, 4})}, {"offset", integer(-2)}});
  // 257 -> float32 257 -> bf16 256 (tie to even), 258 -> 258.
  m.add("iota", {{"dst", m.whole(f)}, {"pattern", list({1, 2})}, {"offset", integer(257)}});
  m.run();
  CHECK(m.get<int32_t>(w, 0, 0) == 2147483647);
  CHECK(m.get<int32_t>(w, 1, 1) == INT32_MIN);
  const uint8_t expected_u[4] = {0, 254, 255, 255};
  for (int k = 0; k < 4; ++k) CHECK(m.get<uint8_t>(u, 0, k) == expected_u[k]);
  CHECK(m.get<uint16_t>(f, 0, 0) == 0x4380);  // 256.0
  CHECK(m.get<uint16_t>(f, 0, 1) == 0x4381);  // 258.0
}

TEST_CASE("iota earlier form: absent base, partition_step, free_step take 0, 0, 1") {
  TestMachine m;
  const int32_t t = m.sbuf("t", Dtype::i16, {2, 3});
  m.add("iota", {{"dst", m.whole(t)}, {"partition_step", integer(7)}});
  m.run();
  for (int p = 0; p < 2; ++p)
    for (int k = 0; k < 3; ++k) CHECK(m.get<int16_t>(t, p, k) == 7 * p + k);
}

TEST_CASE("tensor_reduce axis: the last axes fold per kept index, negate, in place") {
  // data [2, 2, 3] = p*100 + 10*a + b; axis=[2] reduces b: sums 3*(p*100 + 10a) + 3.
  TestMachine m;
  const int32_t x = m.sbuf("x", Dtype::f32, {2, 2, 3});
  const int32_t r = m.sbuf("r", Dtype::f32, {2, 2});
  const int32_t mx = m.psum("mx", Dtype::f32, {2, 2, 1});
  for (int p = 0; p < 2; ++p)
    for (int i = 0; i < 6; ++i) m.set<float>(x, p, i, static_cast<float>(p * 100 + 10 * (i / 3) + i % 3));
  m.add("tensor_reduce", {{"dst", m.whole(r)}, {"data", m.whole(x)}, {"op", "add"}, {"axis", list({2})}});
  m.add("tensor_reduce", {{"dst", m.whole(mx)}, {"data", m.whole(x)}, {"op", "maximum"}, {"axis", list({-1})}, {"negate", boolean(true)},
                          {"keepdims", boolean(true)}});
  m.run();
  for (int p = 0; p < 2; ++p)
    for (int a = 0; a < 2; ++a) {
      CHECK(m.get<float>(r, p, a) == static_cast<float>(3 * (p * 100 + 10 * a) + 3));
      CHECK(m.get<float>(mx, p, a) == -static_cast<float>(p * 100 + 10 * a + 2));
    }
  // In place: dst is the first two elements of each partition of data (S1.6: read first).
  TestMachine n;
  const int32_t y = n.sbuf("y", Dtype::f32, {1, 2, 2});
  const float v[4] = {1, 2, 3, 4};
  for (int i = 0; i < 4; ++i) n.set<float>(y, 0, i, v[i]);
  Operand head = n.whole(y);
  head.view.dims[1] = DimSlice{0, 1, 1};
  n.add("tensor_reduce", {{"dst", head}, {"data", n.whole(y)}, {"op", "add"}, {"axis", list({2})}});
  n.run();
  CHECK(n.get<float>(y, 0, 0) == 3.0f);
  CHECK(n.get<float>(y, 0, 1) == 7.0f);
}
