// range_select (S4.4) and the numerical-stability note (S2.4, S3).
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "test_machine.hpp"

using namespace nisa;
using namespace nisa::test;

namespace {

constexpr float kFp32Min = -3.4028234663852886e38f;  // S2.4

bool compare(const char* op, float a, float b) {
  if (!std::strcmp(op, "equal")) return a == b;
  if (!std::strcmp(op, "less")) return a < b;
  if (!std::strcmp(op, "less_equal")) return a <= b;
  if (!std::strcmp(op, "greater")) return a > b;
  return a >= b;
}

}  // namespace

TEST_CASE("range_select: every comparison pair against the NumPy form of S4.4") {
  const char* ops[] = {"equal", "less", "less_equal", "greater", "greater_equal"};
  for (const char* op0 : ops)
    for (const char* op1 : ops) {
      CAPTURE(op0);
      CAPTURE(op1);
      TestMachine m;
      const int32_t x = m.sbuf("x", Dtype::f32, {8, 40});
      const int32_t b0 = m.sbuf("b0", Dtype::f32, {8, 1});
      const int32_t b1 = m.sbuf("b1", Dtype::f32, {8, 1});
      const int32_t dst = m.sbuf("dst", Dtype::f32, {8, 40});
      const int32_t res = m.sbuf("res", Dtype::f32, {8, 1});
      // Bounds: integers, fractions, out of range, infinities, NaN.
      const float lo[8] = {110, 112.5f, -5, 139, std::numeric_limits<float>::quiet_NaN(), 100, 125, -INFINITY};
      const float hi[8] = {130, 120.5f, 1000, 139, 130, 99, 125.25f, INFINITY};
      for (int p = 0; p < 8; ++p) {
        m.set<float>(b0, p, 0, lo[p]);
        m.set<float>(b1, p, 0, hi[p]);
        for (int i = 0; i < 40; ++i) m.set<float>(x, p, i, static_cast<float>((i * 7 + p) % 23) - 11.0f);
      }
      m.add("range_select", {{"dst", m.whole(dst)}, {"on_true_tile", m.whole(x)}, {"comp_op0", op0}, {"comp_op1", op1},
                             {"bound0", m.whole(b0)}, {"bound1", m.whole(b1)}, {"range_start", integer(100)},
                             {"reduce_cmd", "reset_reduce"}, {"reduce_res", m.whole(res)}});
      m.run();
      for (int p = 0; p < 8; ++p) {
        float mx = -INFINITY;
        for (int i = 0; i < 40; ++i) {
          const float idx = static_cast<float>(100 + i);
          const bool keep = compare(op0, idx, lo[p]) && compare(op1, idx, hi[p]);
          const float v = keep ? static_cast<float>((i * 7 + p) % 23) - 11.0f : kFp32Min;
          mx = std::fmax(mx, v);
          CHECK(m.get<float>(dst, p, i) == v);
        }
        CHECK(m.get<float>(res, p, 0) == mx);
      }
    }
}

TEST_CASE("range_select: NKI docstring example 2 chain (reset_reduce, reduce, reduce with reduce_res)") {
  // 2.a reset_reduce at range_start 0; 2.b x += 1, reduce at range_start + 64
  // (the tile width); 2.c x += 1, reduce at range_start + 128 with reduce_res.
  TestMachine m;
  const int64_t w = 64;
  const int32_t x = m.sbuf("x", Dtype::f32, {128, w});
  const int32_t ones = m.sbuf("ones", Dtype::f32, {128, w});
  const int32_t b0 = m.sbuf("b0", Dtype::f32, {128, 1});
  const int32_t b1 = m.sbuf("b1", Dtype::f32, {128, 1});
  const int32_t dst = m.sbuf("dst", Dtype::f32, {128, w});
  const int32_t res = m.sbuf("res", Dtype::f32, {128, 1});
  auto value = [](int64_t p, int64_t i) { return static_cast<float>(((p * 31 + i * 17) % 101) - 50); };
  for (int p = 0; p < 128; ++p) {
    m.set<float>(b0, p, 0, static_cast<float>(p));        // lower bound, inclusive
    m.set<float>(b1, p, 0, static_cast<float>(p + 90));   // upper bound, exclusive
    for (int i = 0; i < w; ++i) {
      m.set<float>(x, p, i, value(p, i));
      m.set<float>(ones, p, i, 1.0f);
    }
  }
  auto select = [&](int64_t range_start, const char* cmd, bool with_res) {
    if (with_res)
      m.add("range_select", {{"dst", m.whole(dst)}, {"on_true_tile", m.whole(x)}, {"comp_op0", "greater_equal"},
                             {"comp_op1", "less"}, {"bound0", m.whole(b0)}, {"bound1", m.whole(b1)},
                             {"reduce_cmd", cmd}, {"range_start", integer(range_start)},
                             {"reduce_res", m.whole(res)}});
    else
      m.add("range_select", {{"dst", m.whole(dst)}, {"on_true_tile", m.whole(x)}, {"comp_op0", "greater_equal"},
                             {"comp_op1", "less"}, {"bound0", m.whole(b0)}, {"bound1", m.whole(b1)},
                             {"reduce_cmd", cmd}, {"range_start", integer(range_start)}});
  };
  auto add_ones = [&] {
    m.add("tensor_tensor", {{"dst", m.whole(x)}, {"data1", m.whole(x)}, {"data2", m.whole(ones)}, {"op", "add"}});
  };
  select(0, "reset_reduce", false);
  add_ones();
  select(w, "reduce", false);
  add_ones();
  select(2 * w, "reduce", true);
  m.run();
  for (int p = 0; p < 128; ++p) {
    float expected = -INFINITY;
    for (int chunk = 0; chunk < 3; ++chunk)
      for (int i = 0; i < w; ++i) {
        const int64_t idx = chunk * w + i;
        if (idx >= p && idx < p + 90) expected = std::fmax(expected, value(p, i) + static_cast<float>(chunk));
      }
    CAPTURE(p);
    CHECK(m.get<float>(res, p, 0) == expected);
  }
}

TEST_CASE("range_select: a fully masked bf16 row holds -inf, a float32 reduce_res fp32.min (S2.4, S3)") {
  TestMachine m;
  const int32_t x = m.sbuf("x", Dtype::bf16, {32, 16});
  const int32_t b0 = m.sbuf("b0", Dtype::f32, {32, 1});
  const int32_t b1 = m.sbuf("b1", Dtype::f32, {32, 1});
  const int32_t dst = m.sbuf("dst", Dtype::bf16, {32, 16});
  const int32_t res = m.sbuf("res", Dtype::f32, {32, 1});
  for (int p = 0; p < 32; ++p) {
    m.set<float>(b0, p, 0, 1000.0f);  // no index is >= 1000
    m.set<float>(b1, p, 0, 2000.0f);
    for (int i = 0; i < 16; ++i) m.set<uint16_t>(x, p, i, 0x3F80);
  }
  m.add("range_select", {{"dst", m.whole(dst)}, {"on_true_tile", m.whole(x)}, {"comp_op0", "greater_equal"},
                         {"comp_op1", "less"}, {"bound0", m.whole(b0)}, {"bound1", m.whole(b1)},
                         {"reduce_cmd", "reset_reduce"}, {"reduce_res", m.whole(res)}});
  m.run();
  for (int p = 0; p < 32; ++p) {
    for (int i = 0; i < 16; ++i) CHECK(m.get<uint16_t>(dst, p, i) == 0xFF80);  // bf16 -inf
    uint32_t bits;
    const float r = m.get<float>(res, p, 0);
    std::memcpy(&bits, &r, 4);
    CHECK(bits == 0xFF7FFFFFu);  // fp32.min
  }
}

TEST_CASE("range_select: in place (dst = on_true_tile) and a strided view") {
  TestMachine m;
  const int32_t x = m.sbuf("x", Dtype::f32, {2, 4, 8});
  const int32_t b0 = m.sbuf("b0", Dtype::f32, {2, 1});
  const int32_t b1 = m.sbuf("b1", Dtype::f32, {2, 1});
  for (int p = 0; p < 2; ++p) {
    m.set<float>(b0, p, 0, 2.0f);
    m.set<float>(b1, p, 0, 5.0f);
    for (int i = 0; i < 32; ++i) m.set<float>(x, p, i, static_cast<float>(i));
  }
  // View x[:, 1:3, 2:6]: 8 elements per partition, flat index 0..7.
  Operand v = m.whole(x);
  v.view.dims[1] = DimSlice{1, 2, 1};
  v.view.dims[2] = DimSlice{2, 4, 1};
  m.add("range_select", {{"dst", v}, {"on_true_tile", v}, {"comp_op0", "greater_equal"}, {"comp_op1", "less_equal"},
                         {"bound0", m.whole(b0)}, {"bound1", m.whole(b1)}});
  m.run();
  for (int p = 0; p < 2; ++p)
    for (int i = 0; i < 32; ++i) {
      const int row = i / 8, col = i % 8;
      const bool in_view = row >= 1 && row < 3 && col >= 2 && col < 6;
      const int flat = (row - 1) * 4 + (col - 2);
      const float expected = !in_view ? static_cast<float>(i) : (flat >= 2 && flat <= 5 ? static_cast<float>(i) : kFp32Min);
      CHECK(m.get<float>(x, p, i) == expected);
    }
}
