// select_reduce (S4.3) and the Vector accumulator (S1.3, S3).
#include <doctest/doctest.h>

#include <cstdint>
#include <cmath>
#include <limits>

#include "test_machine.hpp"

using namespace nisa;
using namespace nisa::test;

TEST_CASE("select_reduce: where(pred, on_true, on_false) and its row maximum") {
  TestMachine m;
  const int32_t on_true = m.sbuf("on_true", Dtype::f32, {32, 16});
  const int32_t pred = m.sbuf("pred", Dtype::i8, {32, 16});
  const int32_t dst = m.sbuf("dst", Dtype::f32, {32, 16});
  const int32_t res = m.sbuf("res", Dtype::f32, {32, 1});
  for (int p = 0; p < 32; ++p)
    for (int i = 0; i < 16; ++i) {
      m.set<float>(on_true, p, i, static_cast<float>(i - p));
      m.set<int8_t>(pred, p, i, static_cast<int8_t>(i < 10 ? -1 : 0));  // any nonzero is true
    }
  m.add("select_reduce", {{"dst", m.whole(dst)}, {"predicate", m.whole(pred)}, {"on_true", m.whole(on_true)},
                          {"on_false", number(-100.0f)}, {"reduce_res", m.whole(res)},
                          {"reduce_cmd", "reset_reduce"}});
  m.run();
  for (int p = 0; p < 32; ++p) {
    for (int i = 0; i < 16; ++i) CHECK(m.get<float>(dst, p, i) == (i < 10 ? static_cast<float>(i - p) : -100.0f));
    CHECK(m.get<float>(res, p, 0) == static_cast<float>(9 - p));  // max over kept: i = 9
    CHECK(m.machine().vector_accumulator[static_cast<std::size_t>(p)] == static_cast<float>(9 - p));
  }
  // Lanes the instruction did not cover keep their start value -inf (S1.3).
  CHECK(m.machine().vector_accumulator[40] == -std::numeric_limits<float>::infinity());
}

TEST_CASE("select_reduce: [P,1] on_false, reverse_pred, reduce/idle chain on physical lanes 64..95 (S3)") {
  TestMachine m;
  const int32_t on_true = m.sbuf("on_true", Dtype::bf16, {128, 4});
  const int32_t pred = m.sbuf("pred", Dtype::u16, {128, 4});
  const int32_t on_false = m.sbuf("on_false", Dtype::f32, {128, 1});
  const int32_t dst = m.sbuf("dst", Dtype::f32, {128, 4});
  const int32_t res = m.psum("res", Dtype::f32, {128, 1});
  for (int p = 0; p < 128; ++p) {
    m.set<float>(on_false, p, 0, static_cast<float>(p));
    for (int i = 0; i < 4; ++i) {
      m.set<uint16_t>(on_true, p, i, 0x4000);  // bf16 2.0
      m.set<uint16_t>(pred, p, i, static_cast<uint16_t>(i == 0 ? 1 : 0));
    }
  }
  auto lanes = [&](int32_t t) { return m.rows(t, 64, 32); };
  // reverse_pred: elements 1..3 take on_true (2.0), element 0 takes on_false[p].
  m.add("select_reduce", {{"dst", lanes(dst)}, {"predicate", lanes(pred)}, {"on_true", lanes(on_true)},
                          {"on_false", lanes(on_false)}, {"reverse_pred", boolean(true)},
                          {"reduce_cmd", "reset_reduce"}});
  m.run();
  for (int p = 64; p < 96; ++p) {
    CHECK(m.get<float>(dst, p, 0) == static_cast<float>(p));
    CHECK(m.get<float>(dst, p, 1) == 2.0f);
    CHECK(m.machine().vector_accumulator[static_cast<std::size_t>(p)] == static_cast<float>(p));
  }
  CHECK(m.get<float>(dst, 0, 0) == 0.0f);  // partitions outside the tile untouched
  // idle leaves the accumulator as it was (model's choice, S3) and reduce_res reads it.
  for (int p = 0; p < 128; ++p) m.set<float>(on_false, p, 0, 1000.0f);
  m.add("select_reduce", {{"dst", lanes(dst)}, {"predicate", lanes(pred)}, {"on_true", lanes(on_true)},
                          {"on_false", lanes(on_false)}, {"reverse_pred", boolean(true)}, {"reduce_res", lanes(res)}});
  m.run();
  for (int p = 64; p < 96; ++p) CHECK(m.get<float>(res, p, 0) == static_cast<float>(p));
  // reduce folds this instruction's maximum (1000) into the lanes.
  m.add("select_reduce", {{"dst", lanes(dst)}, {"predicate", lanes(pred)}, {"on_true", lanes(on_true)},
                          {"on_false", lanes(on_false)}, {"reverse_pred", boolean(true)}, {"reduce_res", lanes(res)},
                          {"reduce_cmd", "reduce"}});
  m.run();
  for (int p = 64; p < 96; ++p) CHECK(m.get<float>(res, p, 0) == 1000.0f);
  // reset: the identity -inf, elements not reduced.
  m.add("select_reduce", {{"dst", lanes(dst)}, {"predicate", lanes(pred)}, {"on_true", lanes(on_true)},
                          {"on_false", lanes(on_false)}, {"reduce_res", lanes(res)}, {"reduce_cmd", "reset"}});
  m.run();
  for (int p = 64; p < 96; ++p) CHECK(m.get<float>(res, p, 0) == -std::numeric_limits<float>::infinity());
}

TEST_CASE("select_reduce: NaN propagates through the maximum (S2.1)") {
  TestMachine m;
  const int32_t on_true = m.sbuf("on_true", Dtype::f32, {1, 4});
  const int32_t pred = m.sbuf("pred", Dtype::u8, {1, 4});
  const int32_t dst = m.sbuf("dst", Dtype::f32, {1, 4});
  const int32_t res = m.sbuf("res", Dtype::f32, {1, 1});
  const float row[4] = {1.0f, std::numeric_limits<float>::quiet_NaN(), 5.0f, 2.0f};
  for (int i = 0; i < 4; ++i) {
    m.set<float>(on_true, 0, i, row[i]);
    m.set<uint8_t>(pred, 0, i, 1);
  }
  m.add("select_reduce", {{"dst", m.whole(dst)}, {"predicate", m.whole(pred)}, {"on_true", m.whole(on_true)},
                          {"on_false", number(0.0f)}, {"reduce_res", m.whole(res)}, {"reduce_cmd", "reset_reduce"}});
  m.run();
  CHECK(std::isnan(m.get<float>(res, 0, 0)));
}
