// tensor_copy_predicated (S4.2).
#include <doctest/doctest.h>

#include <cstdint>

#include "test_machine.hpp"

using namespace nisa;
using namespace nisa::test;

TEST_CASE("tensor_copy_predicated: copies where predicate != 0, false lanes keep their bits") {
  TestMachine m;
  const int32_t src = m.sbuf("src", Dtype::f32, {128, 64});
  const int32_t dst = m.sbuf("dst", Dtype::f32, {128, 64});
  const int32_t pred = m.psum("pred", Dtype::u16, {128, 64});
  for (int p = 0; p < 128; ++p)
    for (int i = 0; i < 64; ++i) {
      m.set<float>(src, p, i, static_cast<float>(p * 1000 + i));
      m.set<uint32_t>(dst, p, i, 0x7FC01234u);  // a NaN payload that must survive
      m.set<uint16_t>(pred, p, i, static_cast<uint16_t>((p + i) % 3 == 0 ? 0 : (i == 5 ? 0x8000 : 1)));
    }
  m.add("tensor_copy_predicated", {{"dst", m.whole(dst)}, {"src", m.whole(src)}, {"predicate", m.whole(pred)}});
  m.run();
  for (int p = 0; p < 128; ++p)
    for (int i = 0; i < 64; ++i) {
      if ((p + i) % 3 == 0) CHECK(m.get<uint32_t>(dst, p, i) == 0x7FC01234u);
      else CHECK(m.get<float>(dst, p, i) == static_cast<float>(p * 1000 + i));
    }
}

TEST_CASE("tensor_copy_predicated: reverse_pred, scalar src, bit copy of bf16 NaN payloads") {
  TestMachine m;
  const int32_t src = m.sbuf("src", Dtype::bf16, {4, 8});
  const int32_t dst = m.sbuf("dst", Dtype::bf16, {4, 8});
  const int32_t idst = m.sbuf("idst", Dtype::i32, {4, 8});
  const int32_t pred = m.sbuf("pred", Dtype::u8, {4, 8});
  for (int p = 0; p < 4; ++p)
    for (int i = 0; i < 8; ++i) {
      m.set<uint16_t>(src, p, i, static_cast<uint16_t>(0x7F81 + i));  // signalling-style NaN bits
      m.set<uint16_t>(dst, p, i, 0x3F80);                              // 1.0
      m.set<int32_t>(idst, p, i, -3);
      m.set<uint8_t>(pred, p, i, static_cast<uint8_t>(i % 2));
    }
  m.add("tensor_copy_predicated",
        {{"dst", m.whole(dst)}, {"src", m.whole(src)}, {"predicate", m.whole(pred)}, {"reverse_pred", boolean(true)}});
  // LANGUAGE.md 2.3: an integer scalar for an integer tile is exact (2^24 + 1).
  m.add("tensor_copy_predicated", {{"dst", m.whole(idst)}, {"src", integer(16777217)}, {"predicate", m.whole(pred)}});
  m.run();
  for (int p = 0; p < 4; ++p)
    for (int i = 0; i < 8; ++i) {
      CHECK(m.get<uint16_t>(dst, p, i) == (i % 2 == 0 ? 0x7F81 + i : 0x3F80));
      CHECK(m.get<int32_t>(idst, p, i) == (i % 2 == 1 ? 16777217 : -3));
    }
}

TEST_CASE("tensor_copy_predicated: dst overlapping src with a shifted layout reads src first (S1.6)") {
  TestMachine m;
  const int32_t t = m.sbuf("t", Dtype::f32, {2, 9});
  const int32_t pred = m.sbuf("pred", Dtype::u32, {2, 8});
  for (int p = 0; p < 2; ++p)
    for (int i = 0; i < 9; ++i) m.set<float>(t, p, i, static_cast<float>(i));
  for (int p = 0; p < 2; ++p)
    for (int i = 0; i < 8; ++i) m.set<uint32_t>(pred, p, i, i == 3 ? 0u : 1u);
  Operand dst = m.whole(t), src = m.whole(t);
  dst.view.dims[1] = DimSlice{1, 8, 1};
  src.view.dims[1] = DimSlice{0, 8, 1};
  m.add("tensor_copy_predicated", {{"dst", dst}, {"src", src}, {"predicate", m.whole(pred)}});
  m.run();
  // dst[i+1] = old src[i] except i == 3 (keeps old t[4] = 4).
  const float expected[9] = {0, 0, 1, 2, 4, 4, 5, 6, 7};
  for (int p = 0; p < 2; ++p)
    for (int i = 0; i < 9; ++i) CHECK(m.get<float>(t, p, i) == expected[i]);
}
