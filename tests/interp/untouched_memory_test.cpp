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
      {"tensor_copy", [](TestMachine& m, const Operand& d, const Operand& s, const Operand&, const Operand&) {
         m.add("tensor_copy", {{"dst", d}, {"src", s}, {"engine", "gpsimd"}});
       }},
      // issue 13, vecops batch
      {"tensor_tensor_scan", [](TestMachine& m, const Operand& d, const Operand& s, const Operand& c, const Operand&) {
         m.add("tensor_tensor_scan", {{"dst", d}, {"data0", s}, {"data1", s}, {"initial", c}, {"op0", "multiply"},
                                      {"op1", "add"}});
       }},
      {"affine_select", [](TestMachine& m, const Operand& d, const Operand& s, const Operand&, const Operand&) {
         Operand pattern;
         pattern.state = OperandState::list;
         pattern.list = {-1, 4};
         m.add("affine_select", {{"dst", d}, {"pattern", pattern}, {"channel_multiplier", integer(1)},
                                 {"on_true_tile", s}, {"on_false_value", number(-9)}, {"cmp_op", "greater"}});
       }},
      {"tensor_scalar_cumulative",
       [](TestMachine& m, const Operand& d, const Operand& s, const Operand& c, const Operand&) {
         m.add("tensor_scalar_cumulative", {{"dst", d}, {"src", s}, {"op0", "multiply"}, {"op1", "add"}, {"imm0", c}});
       }},
      {"scalar_tensor_tensor", [](TestMachine& m, const Operand& d, const Operand& s, const Operand& c, const Operand&) {
         m.add("scalar_tensor_tensor", {{"dst", d}, {"data", s}, {"op0", "multiply"}, {"operand0", c}, {"op1", "add"},
                                        {"operand1", s}});
       }},
      {"tensor_scalar_reduce", [](TestMachine& m, const Operand& d, const Operand& s, const Operand& c, const Operand&) {
         m.add("tensor_scalar_reduce", {{"dst", d}, {"data", s}, {"op0", "add"}, {"operand0", number(1)},
                                        {"reduce_op", "add"}, {"reduce_res", c}, {"reduce_cmd", "load_reduce"},
                                        {"reduce_init", number(2)}, {"reduce_res_negate", boolean(true)}});
       }},
      {"activation_reduce", [](TestMachine& m, const Operand& d, const Operand& s, const Operand& c, const Operand&) {
         m.add("activation_reduce", {{"dst", d}, {"op", "exp"}, {"data", s}, {"reduce_op", "add"}, {"reduce_res", c}});
       }},
      {"exponential", [](TestMachine& m, const Operand& d, const Operand& s, const Operand& c, const Operand&) {
         m.add("exponential", {{"dst", d}, {"src", s}, {"max_value", number(4)}, {"reduce_res", c},
                               {"reduce_cmd", "reset_reduce"}});
       }},
      {"reciprocal", [](TestMachine& m, const Operand& d, const Operand& s, const Operand&, const Operand&) {
         m.add("reciprocal", {{"dst", d}, {"data", s}});
       }},
      // dst is the view's first partition only: every other partition of it keeps its bytes
      {"tensor_partition_reduce",
       [](TestMachine& m, const Operand& d, const Operand& s, const Operand&, const Operand&) {
         Operand first = d;
         first.view.dims[0] = DimSlice{32, 1, 1};
         m.add("tensor_partition_reduce", {{"dst", first}, {"op", "add"}, {"data", s}});
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

// The Tensor Engine instructions (S8.3, S8.4) read SBUF and write a PSUM
// view: "nc_matmul" [4, 4] = [32, 4].T @ [32, 4], "nc_transpose" [4, 32] of a
// [32, 4] tile; every other PSUM and SBUF byte keeps its value.
TEST_CASE("nc_matmul and nc_transpose write only their dst view") {
  for (const std::string name : {"nc_matmul", "nc_transpose"}) {
    CAPTURE(name);
    TestMachine m;
    const int32_t block = m.sbuf("block", Dtype::f32, {128, 16});
    const int32_t acc = m.psum("acc", Dtype::f32, {128, 48});
    for (int p = 0; p < 128; ++p) {
      for (int i = 0; i < 16; ++i) m.set<float>(block, p, i, 0.5f + static_cast<float>(i));
      for (int i = 0; i < 48; ++i) m.set<float>(acc, p, i, 7.0f + static_cast<float>(i));
    }
    auto view = [&](int32_t t, int64_t p0, int64_t parts, int64_t col, int64_t width) {
      Operand o = m.rows(t, p0, parts);
      o.view.dims[1] = DimSlice{col, width, 1};
      return o;
    };
    const int64_t dst_parts = 4, dst_cols = name == "nc_matmul" ? 4 : 32;
    if (name == "nc_matmul")
      m.add("nc_matmul", {{"dst", view(acc, 0, 4, 2, 4)}, {"stationary", view(block, 32, 32, 0, 4)}, {"moving", view(block, 32, 32, 8, 4)}});
    else
      m.add("nc_transpose", {{"dst", view(acc, 0, 4, 2, 32)}, {"data", view(block, 32, 32, 0, 4)}});
    m.run();
    for (int p = 0; p < 128; ++p) {
      CAPTURE(p);
      for (int i = 0; i < 16; ++i) CHECK(m.get<float>(block, p, i) == 0.5f + static_cast<float>(i));
      for (int i = 0; i < 48; ++i) {
        CAPTURE(i);
        const bool written = p < dst_parts && i >= 2 && i < 2 + dst_cols;
        if (!written) CHECK(m.get<float>(acc, p, i) == 7.0f + static_cast<float>(i));
      }
    }
  }
}
