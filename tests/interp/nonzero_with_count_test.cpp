// nonzero_with_count (S4.1).
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "test_machine.hpp"

using namespace nisa;
using namespace nisa::test;

TEST_CASE("nonzero_with_count: S4.1 example on partitions 16k, others untouched") {
  TestMachine m;
  const int32_t src = m.sbuf("src", Dtype::f32, {128, 8});
  const int32_t dst = m.sbuf("dst", Dtype::i32, {128, 9});
  const float row[8] = {0, 1, 1, 0, 0, 1, 0, 0};
  for (int p = 0; p < 128; ++p) {
    for (int i = 0; i < 8; ++i) m.set<float>(src, p, i, row[i]);
    for (int i = 0; i < 9; ++i) m.set<int32_t>(dst, p, i, 777);
  }
  m.add("nonzero_with_count", {{"dst", m.whole(dst)}, {"src", m.whole(src)}, {"index_offset", integer(16)},
                               {"padding_val", integer(-1)}});
  m.run();
  const int32_t expected[9] = {17, 18, 21, -1, -1, -1, -1, -1, 3};  // S4.1
  for (int p = 0; p < 128; ++p)
    for (int i = 0; i < 9; ++i) {
      CAPTURE(p);
      CAPTURE(i);
      CHECK(m.get<int32_t>(dst, p, i) == (p % 16 == 0 ? expected[i] : 777));
    }
}

TEST_CASE("nonzero_with_count: -0.0 is zero, NaN and inf nonzero; i32 src; physical partitions of a slice") {
  TestMachine m;
  const int32_t src = m.sbuf("src", Dtype::f32, {64, 5});
  const int32_t isrc = m.sbuf("isrc", Dtype::i32, {64, 5});
  const int32_t dst = m.sbuf("dst", Dtype::i32, {64, 6});
  const int32_t idst = m.sbuf("idst", Dtype::i32, {64, 6});
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float row[5] = {-0.0f, nan, 0.0f, std::numeric_limits<float>::infinity(), 1e-45f};
  const int32_t irow[5] = {0, -5, 0, 0, 1 << 30};
  for (int p = 0; p < 64; ++p)
    for (int i = 0; i < 5; ++i) {
      m.set<float>(src, p, i, row[i]);
      m.set<int32_t>(isrc, p, i, irow[i]);
    }
  // Tiles on physical partitions 32..63: GpSimd serves 32 and 48 (S4.1).
  m.add("nonzero_with_count", {{"dst", m.rows(dst, 32, 32)}, {"src", m.rows(src, 32, 32)}});
  m.add("nonzero_with_count", {{"dst", m.rows(idst, 32, 32)}, {"src", m.rows(isrc, 32, 32)},
                               {"index_offset", integer(100)}, {"padding_val", integer(7)}});
  m.run();
  const int32_t expected[6] = {1, 3, 4, -1, -1, 3};  // default offset 0, padding -1
  const int32_t iexpected[6] = {101, 104, 7, 7, 7, 2};
  for (int p = 0; p < 64; ++p)
    for (int i = 0; i < 6; ++i) {
      CAPTURE(p);
      const bool served = p == 32 || p == 48;
      CHECK(m.get<int32_t>(dst, p, i) == (served ? expected[i] : 0));
      CHECK(m.get<int32_t>(idst, p, i) == (served ? iexpected[i] : 0));
    }
}

TEST_CASE("nonzero_with_count: dst overlapping src reads src first (S1.6)") {
  TestMachine m;
  // dst starts 4 bytes before src's first element: found indices would
  // overwrite src elements not yet read by a streaming kernel.
  const int32_t buf = m.sbuf("buf", Dtype::i32, {16, 5}, 0);
  const int32_t src = m.sbuf("src", Dtype::i32, {16, 4}, 4);
  (void)buf;
  const int32_t row[4] = {5, 0, 6, 7};
  for (int i = 0; i < 4; ++i) m.set<int32_t>(src, 0, i, row[i]);
  m.add("nonzero_with_count", {{"dst", m.whole(buf)}, {"src", m.whole(src)}});
  m.run();
  const int32_t expected[5] = {0, 2, 3, -1, 3};
  for (int i = 0; i < 5; ++i) CHECK(m.get<int32_t>(buf, 0, i) == expected[i]);
}
