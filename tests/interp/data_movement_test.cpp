// dma_copy, memset, iota (LANGUAGE.md 2.4; S2.1 bit copies, S2.2/S2.3
// conversions, S1.6 overlapping operands).
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>

#include "test_machine.hpp"

using namespace nisa;
using namespace nisa::test;

TEST_CASE("dma_copy: strided HBM view into SBUF and back, bits exact") {
  TestMachine m;
  const int32_t h = m.hbm("h", Dtype::bf16, {8, 6, 5});
  const int32_t out = m.hbm("out", Dtype::bf16, {4, 6});
  const int32_t t = m.sbuf("t", Dtype::bf16, {4, 6});
  for (int r = 0; r < 8; ++r)
    for (int i = 0; i < 30; ++i) m.set<uint16_t>(h, r, i, static_cast<uint16_t>(0x7F80 + r * 64 + i));  // incl. NaN bits
  // h[1:8:2, :, 3] -> rows 1,3,5,7; column 3 of each of the 6 inner rows.
  Operand src = m.whole(h);
  src.view.dims[0] = DimSlice{1, 4, 2};
  src.view.dims[2] = DimSlice{3, 1, 1};
  m.add("dma_copy", {{"dst", m.whole(t)}, {"src", src}});
  m.add("dma_copy", {{"dst", m.whole(out)}, {"src", m.whole(t)}});
  m.run();
  for (int p = 0; p < 4; ++p)
    for (int j = 0; j < 6; ++j) {
      const int r = 1 + 2 * p;
      CHECK(m.get<uint16_t>(t, p, j) == 0x7F80 + r * 64 + j * 5 + 3);
      CHECK(m.get<uint16_t>(out, p, j) == 0x7F80 + r * 64 + j * 5 + 3);
    }
}

TEST_CASE("dma_copy: overlapping source and destination behave as read-then-write (S1.6)") {
  TestMachine m;
  const int32_t t = m.sbuf("t", Dtype::i32, {2, 10});
  for (int p = 0; p < 2; ++p)
    for (int i = 0; i < 10; ++i) m.set<int32_t>(t, p, i, i);
  Operand forward = m.whole(t), backward = m.whole(t);
  forward.view.dims[1] = DimSlice{1, 9, 1};
  backward.view.dims[1] = DimSlice{0, 9, 1};
  m.add("dma_copy", {{"dst", forward}, {"src", backward}});  // shift right by one
  m.run();
  for (int i = 0; i < 10; ++i) CHECK(m.get<int32_t>(t, 0, i) == (i == 0 ? 0 : i - 1));
}

TEST_CASE("memset: float value rounded per dtype, integer value exact (S2.2, S2.3)") {
  TestMachine m;
  const int32_t f = m.sbuf("f", Dtype::bf16, {3, 4});
  const int32_t i = m.psum("i", Dtype::i32, {3, 4});
  const int32_t u = m.sbuf("u", Dtype::u8, {3, 4});
  const int32_t e = m.sbuf("e", Dtype::fp8e4m3fn, {3, 4});
  m.add("memset", {{"dst", m.whole(f)}, {"value", number(1.00390625f)}});  // bf16 tie: rounds to even 1.0
  m.add("memset", {{"dst", m.whole(i)}, {"value", integer(16777217)}});
  m.add("memset", {{"dst", m.whole(u)}, {"value", number(300.0f)}});      // saturates to 255
  m.add("memset", {{"dst", m.whole(e)}, {"value", number(1000.0f)}});     // saturates to 448 = 0x7E
  m.run();
  for (int p = 0; p < 3; ++p)
    for (int k = 0; k < 4; ++k) {
      CHECK(m.get<uint16_t>(f, p, k) == 0x3F80);
      CHECK(m.get<int32_t>(i, p, k) == 16777217);
      CHECK(m.get<uint8_t>(u, p, k) == 255);
      CHECK(m.get<uint8_t>(e, p, k) == 0x7E);
    }
}

TEST_CASE("iota: base + p*partition_step + i*free_step over the flat free index") {
  TestMachine m;
  const int32_t i32 = m.sbuf("i32", Dtype::i32, {4, 2, 3});
  const int32_t f32 = m.sbuf("f32", Dtype::f32, {4, 6});
  m.add("iota", {{"dst", m.whole(i32)}, {"base", integer(-7)}, {"partition_step", integer(100)},
                 {"free_step", integer(3)}});
  m.add("iota", {{"dst", m.whole(f32)}, {"base", number(0.5f)}, {"partition_step", number(-1)},
                 {"free_step", number(0.25f)}});
  m.run();
  for (int p = 0; p < 4; ++p)
    for (int k = 0; k < 6; ++k) {
      CHECK(m.get<int32_t>(i32, p, k) == -7 + 100 * p + 3 * k);
      CHECK(m.get<float>(f32, p, k) == 0.5f - static_cast<float>(p) + 0.25f * static_cast<float>(k));
    }
}

TEST_CASE("pre-decoding stages dst only when it overlaps an input with another layout (S1.6)") {
  TestMachine m;
  const int32_t x = m.sbuf("x", Dtype::f32, {128, 64});
  const int32_t y = m.sbuf("y", Dtype::f32, {128, 64});  // same partitions, other bytes
  Operand x_left = m.whole(x), x_right = m.whole(x), x_low = m.rows(x, 64, 64);
  x_left.view.dims[1] = DimSlice{0, 32, 1};
  x_right.view.dims[1] = DimSlice{32, 32, 1};
  m.add("dma_copy", {{"dst", m.whole(y)}, {"src", m.whole(x)}});            // disjoint
  m.add("dma_copy", {{"dst", x_left}, {"src", x_right}});                   // same partitions, disjoint bytes
  m.add("dma_copy", {{"dst", m.rows(y, 0, 64)}, {"src", x_low}});           // disjoint tensors
  m.add("tensor_tensor", {{"dst", m.whole(x)}, {"data1", m.whole(x)}, {"data2", m.whole(y)}, {"op", "add"}});  // in place
  m.add("dma_copy", {{"dst", m.rows(x, 0, 64)}, {"src", x_low}});           // same bytes, other partitions
  Operand shifted = m.whole(x);
  shifted.view.dims[1] = DimSlice{1, 32, 1};
  m.add("dma_copy", {{"dst", shifted}, {"src", x_left}});                    // overlapping, shifted
  const DecodedProgram decoded = predecode(active_spec(), m.program(), m.machine());
  const std::vector<Step>& steps = decoded.steps;
  CHECK_FALSE(steps[0].staged);
  CHECK_FALSE(steps[1].staged);
  CHECK_FALSE(steps[2].staged);
  CHECK_FALSE(steps[3].staged);
  CHECK_FALSE(steps[4].staged);
  CHECK(steps[5].staged);
}
