// Every instruction writes exactly its dst view (and reduce_res): all other
// SBUF bytes keep their contents (SingleStepTests' rule; S1.4 views).
#include <doctest/doctest.h>

#include <cstdint>
#include <functional>
#include <string>

#include "test_machine.hpp"

using namespace nisa;
using namespace nisa::test;

TEST_CASE("instructions write only their dst view and reduce_res") {
  struct Case {
    std::string name;
    std::function<void(TestMachine&, const Operand& dst, const Operand& src, const Operand& column,
                        const Operand& pred)>
        add;
  };
  const std::vector<Case> cases = {
      {"memset", [](TestMachine& m, const Operand& d, const Operand&, const Operand&, const Operand&) {
         m.add("memset", {{"dst", d}, {"value", number(5)}});
       }},
      {"iota", [](TestMachine& m, const Operand& d, const Operand&, const Operand&, const Operand&) {
         m.add("iota", {{"dst", d}, {"base", number(1)}});
       }},
      {"dma_copy", [](TestMachine& m, const Operand& d, const Operand& s, const Operand&, const Operand&) {
         m.add("dma_copy", {{"dst", d}, {"src", s}});
       }},
      {"tensor_scalar", [](TestMachine& m, const Operand& d, const Operand& s, const Operand& c, const Operand&) {
         m.add("tensor_scalar", {{"dst", d}, {"data", s}, {"op0", "add"}, {"operand0", c}});
       }},
      {"tensor_tensor", [](TestMachine& m, const Operand& d, const Operand& s, const Operand&, const Operand&) {
         m.add("tensor_tensor", {{"dst", d}, {"data1", s}, {"data2", s}, {"op", "multiply"}});
       }},
      {"tensor_reduce", [](TestMachine& m, const Operand&, const Operand& s, const Operand& c, const Operand&) {
         m.add("tensor_reduce", {{"dst", c}, {"data", s}, {"op", "add"}});
       }},
      {"activation", [](TestMachine& m, const Operand& d, const Operand& s, const Operand& c, const Operand&) {
         m.add("activation", {{"dst", d}, {"op", "exp"}, {"data", s}, {"bias", c}, {"reduce_op", "add"},
                              {"reduce_cmd", "reset_reduce"}, {"reduce_res", c}});
       }},
      {"activate2", [](TestMachine& m, const Operand& d, const Operand& s, const Operand& c, const Operand&) {
         m.add("activate2", {{"dst", d}, {"op", "relu"}, {"data", s}, {"imm0", c}, {"imm1", number(1)},
                             {"op0", "multiply"}, {"op1", "add"}});
       }},
      {"select_reduce", [](TestMachine& m, const Operand& d, const Operand& s, const Operand& c, const Operand& p) {
         m.add("select_reduce", {{"dst", d}, {"predicate", p}, {"on_true", s}, {"on_false", c},
                                 {"reduce_cmd", "reset_reduce"}, {"reduce_res", c}});
       }},
      {"range_select", [](TestMachine& m, const Operand& d, const Operand& s, const Operand& c, const Operand&) {
         m.add("range_select", {{"dst", d}, {"on_true_tile", s}, {"comp_op0", "greater"}, {"comp_op1", "less"},
                                {"bound0", c}, {"bound1", c}, {"reduce_cmd", "reset_reduce"}, {"reduce_res", c}});
       }},
      {"tensor_copy_predicated",
       [](TestMachine& m, const Operand& d, const Operand& s, const Operand&, const Operand& p) {
         m.add("tensor_copy_predicated", {{"dst", d}, {"src", s}, {"predicate", p}});
       }},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    TestMachine m;
    // One 128 x 64-byte block of f32 [128, 16] holds every operand; all views
    // are on partitions 32..63 (S1.5), disjoint columns.
    const int32_t block = m.sbuf("block", Dtype::f32, {128, 16});
    const int32_t pred = m.sbuf("pred", Dtype::u8, {128, 4}, 64);
    for (int p = 0; p < 128; ++p) {
      for (int i = 0; i < 16; ++i) m.set<float>(block, p, i, 0.5f + static_cast<float>(i));
      for (int i = 0; i < 4; ++i) m.set<uint8_t>(pred, p, i, static_cast<uint8_t>(i % 2));
    }
    auto view = [&](int64_t col, int64_t width) {
      Operand o = m.rows(block, 32, 32);
      o.view.dims[1] = DimSlice{col, width, 1};
      return o;
    };
    Operand dst = view(2, 4), src = view(8, 4), column = view(13, 1), predicate = m.rows(pred, 32, 32);
    c.add(m, dst, src, column, predicate);
    m.run();
    for (int p = 0; p < 128; ++p)
      for (int i = 0; i < 16; ++i) {
        const bool in_lanes = p >= 32 && p < 64;
        const bool written = in_lanes && ((i >= 2 && i < 6) || i == 13);
        if (!written) {
          CAPTURE(p);
          CAPTURE(i);
          CHECK(m.get<float>(block, p, i) == 0.5f + static_cast<float>(i));
        }
      }
    for (int p = 0; p < 128; ++p)
      for (int i = 0; i < 4; ++i) CHECK(m.get<uint8_t>(pred, p, i) == i % 2);
  }
}

// "nonzero_with_count" (S4.1): dst has one more element than src, and only the
// partitions whose physical number is a multiple of 16 are written: on
// partitions 32..63 that is 32 and 48, columns 2..6 of the block; every other
// byte keeps its value.
TEST_CASE("nonzero_with_count writes only its dst view, on partitions 16k") {
  TestMachine m;
  const int32_t block = m.sbuf("block", Dtype::i32, {128, 16});
  for (int p = 0; p < 128; ++p)
    for (int i = 0; i < 16; ++i) m.set<int32_t>(block, p, i, 1000 + i);
  auto view = [&](int64_t col, int64_t width) {
    Operand o = m.rows(block, 32, 32);
    o.view.dims[1] = DimSlice{col, width, 1};
    return o;
  };
  m.add("nonzero_with_count", {{"dst", view(2, 5)}, {"src", view(8, 4)}});
  m.run();
  for (int p = 0; p < 128; ++p)
    for (int i = 0; i < 16; ++i) {
      CAPTURE(p);
      CAPTURE(i);
      const bool written = (p == 32 || p == 48) && i >= 2 && i < 7;
      // src 1008..1011 is all nonzero: indices 0..3, then the count 4.
      CHECK(m.get<int32_t>(block, p, i) == (written ? i - 2 : 1000 + i));
    }
}

// Issue 13 data movement (S11): each writes its dst view only. One u32 block
// [128, 20] holds every operand (dtypes reinterpreted per instruction through
// @ aliases); views on partitions 32..63, dst at columns 2..5.
TEST_CASE("issue 13 data movement writes only its dst view") {
  struct Case {
    std::string name;
    int64_t dst_columns;  // dst view: partitions 32..63, 32-bit columns 2 .. 2 + dst_columns
    std::function<void(TestMachine&, int32_t u32, int32_t u16, int32_t f32)> add;
  };
  auto rows = [](TestMachine& m, int32_t t, int64_t col, int64_t width) {
    Operand o = m.rows(t, 32, 32);
    o.view.dims[1] = DimSlice{col, width, 1};
    return o;
  };
  const std::vector<Case> cases = {
      {"dma_transpose", 4,
       [&](TestMachine& m, int32_t, int32_t u16, int32_t) {
         // u16 [32, 8] at 16-bit columns 4..11 (= 32-bit columns 2..5) from a [8, 32] HBM source
         const int32_t src = m.tensor("src", Memory::hbm, Dtype::u16, {8, 32});
         m.add("dma_transpose", {{"dst", rows(m, u16, 4, 8)}, {"src", m.whole(src)}});
       }},
      {"nc_stream_shuffle", 4,
       [&](TestMachine& m, int32_t u32, int32_t, int32_t) {
         Operand mask;
         mask.state = OperandState::list;
         for (int i = 0; i < 32; ++i) mask.list.push_back(31 - i);
         m.add("nc_stream_shuffle", {{"dst", rows(m, u32, 2, 4)}, {"src", rows(m, u32, 8, 4)}, {"shuffle_mask", mask}});
       }},
      {"local_gather", 4,
       [&](TestMachine& m, int32_t, int32_t u16, int32_t f32) {
         // index: 16-bit column 26 (zeros: 32-bit column 13 holds 0 in its low half)
         m.add("local_gather", {{"dst", rows(m, f32, 2, 4)}, {"src_buffer", rows(m, f32, 8, 4)}, {"index", rows(m, u16, 26, 1)},
                                {"num_valid_indices", integer(4)}});
       }},
      {"nc_n_gather", 4,
       [&](TestMachine& m, int32_t u32, int32_t, int32_t) {
         m.add("nc_n_gather", {{"dst", rows(m, u32, 2, 4)}, {"data", rows(m, u32, 8, 4)}, {"indices", rows(m, u32, 13, 4)}});
       }},
      // S11.5 random numbers: the state instructions write no memory (0 columns).
      {"rng", 4, [&](TestMachine& m, int32_t u32, int32_t, int32_t) { m.add("rng", {{"dst", rows(m, u32, 2, 4)}}); }},
      {"rand2", 4,
       [&](TestMachine& m, int32_t, int32_t, int32_t f32) {
         m.add("rand2", {{"dst", rows(m, f32, 2, 4)}, {"min", number(-1)}, {"max", rows(m, f32, 8, 1)}});
       }},
      {"dropout", 4,
       [&](TestMachine& m, int32_t, int32_t, int32_t f32) {
         m.add("dropout", {{"dst", rows(m, f32, 2, 4)}, {"data", rows(m, f32, 8, 4)}, {"prob", number(0.5)}});
       }},
      {"set_rng_seed", 0,
       [&](TestMachine& m, int32_t u32, int32_t, int32_t) {
         Operand seed = m.rows(u32, 32, 1);
         seed.view.dims[1] = DimSlice{8, 1, 1};
         m.add("set_rng_seed", {{"src_seeds", seed}});
       }},
      {"rand_set_state", 0,
       [&](TestMachine& m, int32_t u32, int32_t, int32_t) { m.add("rand_set_state", {{"src_seeds", rows(m, u32, 2, 6)}}); }},
      {"rand_get_state", 6,
       [&](TestMachine& m, int32_t u32, int32_t, int32_t) { m.add("rand_get_state", {{"dst", rows(m, u32, 2, 6)}}); }},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    TestMachine m;
    const int32_t u32 = m.sbuf("block", Dtype::u32, {128, 20}, 0);
    const int32_t u16 = m.sbuf("block16", Dtype::u16, {128, 40}, 0);
    const int32_t f32 = m.sbuf("blockf", Dtype::f32, {128, 20}, 0);
    c.add(m, u32, u16, f32);  // first: it may declare an HBM tensor, before the machine exists
    // Values 7000 + i, except columns 13.. (indices): 0 so every gather index is in range.
    for (int p = 0; p < 128; ++p)
      for (int i = 0; i < 20; ++i) m.set<uint32_t>(u32, p, i, i >= 13 ? 0u : 7000u + static_cast<uint32_t>(i));
    m.run();
    for (int p = 0; p < 128; ++p)
      for (int i = 0; i < 20; ++i) {
        const bool written = p >= 32 && p < 64 && i >= 2 && i < 2 + c.dst_columns;
        if (written) continue;
        CAPTURE(p);
        CAPTURE(i);
        CHECK(m.get<uint32_t>(u32, p, i) == (i >= 13 ? 0u : 7000u + static_cast<uint32_t>(i)));
      }
  }
}
